import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { quote } from '../../internal.js';
import { SkillhostError, type SkillRuntime } from '../../node/index.js';
import { listenHttp, randomId } from '../../node/internal.js';
import { announceChanges, type McpServerOptions, SkillServerHub } from './server.js';

export interface ServeHttpOptions extends McpServerOptions {
  /** The port; 0 picks a free one (the handle says which). */
  readonly port: number;
  /** The address to bind (default 127.0.0.1, loopback only). */
  readonly host?: string;
  /** The endpoint's path (default `/mcp`). */
  readonly path?: string;
  /**
   * Origins (`scheme://host[:port]`) whose requests are accepted: a request that carries an
   * `Origin` header from any other is refused with 403, so that no web page the user visits can
   * drive the server. Default none: only clients that send no `Origin` (programs, not browsers).
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Most client sessions kept open at once (default 100): past it, the one unused the longest
   * is ended (its client must initialize again).
   */
  readonly maxSessions?: number;
  /**
   * A secret every request must carry as `Authorization: Bearer TOKEN` (refused with 401
   * otherwise): what keeps other programs of the machine off a server made for one agent.
   */
  readonly bearerToken?: string;
}

/** Compares two texts in time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let index = 0; index < b.length; index += 1)
    difference |= (a.charCodeAt(index) || 0) ^ b.charCodeAt(index);
  return difference === 0;
}

/** An origin as browsers send it, lower-cased, without a default port or a trailing slash. */
export function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.origin === 'null') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

export interface HttpServing {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  readonly host: string;
  /** The port actually bound. */
  readonly port: number;
  /** How many client sessions (2025 protocol, `Mcp-Session-Id`) are open. */
  readonly sessions: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const DEFAULT_MAX_SESSIONS = 100;

/** One 2025-protocol client: its transport (which holds its `Mcp-Session-Id`) and its session. */
interface ClientSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly mcp: McpServer;
  readonly runtime: SkillRuntime;
  readonly stop: () => void;
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
    { status, headers: { 'content-type': 'application/json' } },
  );
}

/** Whether a POST body opens a session (an `initialize` request, alone or in a batch). */
async function opensSession(request: Request): Promise<boolean> {
  if (request.method !== 'POST') return false;
  try {
    const body: unknown = await request.clone().json();
    return Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
  } catch {
    return false;
  }
}

/**
 * The client sessions of a 2025-protocol endpoint: each `initialize` opens one, with its own
 * runtime session, its `Mcp-Session-Id` routes every later request to it, and it ends on the
 * client's DELETE, when the server closes, or (past `max`) when it has been unused the longest.
 */
class ClientSessions {
  readonly #hub: SkillServerHub;
  readonly #max: number;
  readonly #report: (error: unknown) => void;
  readonly #open = new Map<string, ClientSession>();

  constructor(hub: SkillServerHub, max: number, report: (error: unknown) => void) {
    this.#hub = hub;
    this.#max = max;
    this.#report = report;
  }

  get size(): number {
    return this.#open.size;
  }

  async serve(request: Request): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const known = this.#open.get(id);
      if (known === undefined) return jsonRpcError(404, 'Session not found');
      // Kept in the order of use: the first one is the one unused the longest.
      this.#open.delete(id);
      this.#open.set(id, known);
      return known.transport.handleRequest(request);
    }
    if (!(await opensSession(request)))
      return jsonRpcError(400, 'Bad Request: No valid session ID provided');
    return this.#start(request);
  }

  async #start(request: Request): Promise<Response> {
    const runtime = this.#hub.openSession();
    let client: ClientSession | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomId,
      onsessioninitialized: (id) => {
        if (client === undefined) return;
        this.#open.set(id, client);
        for (const [oldest] of this.#open) {
          if (this.#open.size <= this.#max) break;
          this.end(oldest).catch(this.#report);
        }
      },
      onsessionclosed: (id) => {
        this.end(id).catch(this.#report);
      },
    });
    const mcp = this.#hub.build(runtime);
    client = {
      transport,
      mcp,
      runtime,
      stop: this.#hub.onChange(() => announceChanges(mcp, this.#report)),
    };
    await mcp.connect(transport);
    const response = await transport.handleRequest(request);
    // An initialize that failed opened nothing.
    if (transport.sessionId === undefined) await this.#close(client);
    return response;
  }

  /** Ends one client session: its transport, its server instance, its runtime session. */
  async end(id: string): Promise<void> {
    const client = this.#open.get(id);
    if (client === undefined) return;
    this.#open.delete(id);
    await this.#close(client);
  }

  async #close(client: ClientSession): Promise<void> {
    client.stop();
    await client.mcp.close();
    await client.runtime.close();
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.#open.keys()]) await this.end(id);
  }
}

/**
 * Serves the runtime over Streamable HTTP at `http://HOST:PORT/mcp`. Each 2025-protocol client
 * gets a session (`Mcp-Session-Id`) served from a runtime session of its own: its activations,
 * its grants (a skill's pre-approvals end when it activates another skill, after `grantsIdleMs`
 * idle, or when its session ends) and its audit session id. The 2026 protocol has no sessions:
 * its requests are served from one further runtime session, shared by the 2026 clients, with
 * the same rules (and `subscriptions/listen` for change notices). Bound to loopback by default,
 * where the Host header must be local too (DNS rebinding); a request with an `Origin` header is
 * served only for `allowedOrigins`. With `bearerToken`, a request without it is refused; without
 * one there is no authentication: bind elsewhere only on a trusted network.
 */
export async function serveHttp(
  runtime: SkillRuntime,
  options: ServeHttpOptions,
): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const allowedOrigins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const normal = normaliseOrigin(origin);
    if (normal === undefined) throw new SkillhostError('USAGE', `Not an origin: ${quote(origin)}`);
    allowedOrigins.add(normal);
  }
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (options.bearerToken !== undefined && options.bearerToken.length < 16)
    throw new SkillhostError('USAGE', 'bearerToken must be at least 16 characters');
  const authorization =
    options.bearerToken === undefined ? undefined : `Bearer ${options.bearerToken}`;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1)
    throw new SkillhostError('USAGE', 'maxSessions must be a whole number of 1 or more');
  const hub = new SkillServerHub(runtime, options);
  const report = (error: unknown) => hub.report(error);
  await hub.prepare();
  const stateless = hub.openSession();
  const modern = createMcpHandler(() => hub.build(stateless), {
    legacy: 'reject',
    onerror: report,
  });
  hub.onChange(() => {
    modern.notify.toolsChanged();
    modern.notify.promptsChanged();
    modern.notify.resourcesChanged();
  });
  const sessions = new ClientSessions(hub, maxSessions, report);
  // Loaded here: only a server over HTTP needs it (and its HTTP stack), never one over stdio.
  const { localhostHostValidation, toNodeHandler } = await import('@modelcontextprotocol/node');
  const serve = toNodeHandler(
    {
      fetch: async (request) =>
        (await isLegacyRequest(request)) ? sessions.serve(request) : modern.fetch(request),
    },
    { onerror: report },
  );
  const validHost = LOOPBACK.has(host) ? localhostHostValidation() : undefined;
  const listener = await listenHttp(
    (request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== endpoint) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      if (validHost !== undefined && !validHost(request, response)) return;
      if (
        authorization !== undefined &&
        !sameText(String(request.headers.authorization ?? ''), authorization)
      ) {
        response.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized\n');
        return;
      }
      const origin = request.headers.origin;
      if (origin !== undefined) {
        const normal = normaliseOrigin(origin);
        if (normal === undefined || !allowedOrigins.has(normal)) {
          response
            .writeHead(403, { 'content-type': 'text/plain' })
            .end('Origin not allowed; start the server with --allow-origin for it\n');
          return;
        }
      }
      // Node's request is the shape the SDK expects; only exactOptionalPropertyTypes disagrees.
      serve(request as NodeIncomingMessageLike, response).catch(report);
    },
    { port: options.port, host },
  );
  const { port } = listener;
  const close = async () => {
    await sessions.closeAll();
    await modern.close();
    await listener.close();
    await hub.close();
    await stateless.close();
  };
  try {
    if (options.watch === true) await hub.watch();
  } catch (error) {
    await close();
    throw error;
  }
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${endpoint}`,
    host,
    port,
    get sessions() {
      return sessions.size;
    },
    close,
  };
}
