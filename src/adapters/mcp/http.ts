import {
  localhostHostValidation,
  type NodeIncomingMessageLike,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { quote } from '../../internal.js';
import { SkillhostError, type SkillRuntime } from '../../node/index.js';
import { listenHttp } from '../../node/internal.js';
import { type McpServerOptions, SkillServerHub } from './server.js';

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
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Serves the runtime over Streamable HTTP at `http://HOST:PORT/mcp`: the 2026 protocol
 * (per-request, with `subscriptions/listen` for change notices) and, statelessly, 2025
 * clients. Bound to loopback by default, where the Host header must be local too (DNS
 * rebinding); a request with an `Origin` header is served only for `allowedOrigins`. There is no authentication: bind elsewhere only on a trusted network.
 * Every client shares the runtime's session (activations, grants).
 */
export async function serveHttp(
  runtime: SkillRuntime,
  options: ServeHttpOptions,
): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = options.path ?? '/mcp';
  const hub = new SkillServerHub(runtime, options);
  const report = (error: unknown) => hub.report(error);
  const handler = createMcpHandler(() => hub.build(), { onerror: report });
  hub.onChange(() => {
    handler.notify.toolsChanged();
    handler.notify.promptsChanged();
    handler.notify.resourcesChanged();
  });
  const serve = toNodeHandler(handler, { onerror: report });
  const validHost = LOOPBACK.has(host) ? localhostHostValidation() : undefined;
  const allowedOrigins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const normal = normaliseOrigin(origin);
    if (normal === undefined) throw new SkillhostError('USAGE', `Not an origin: ${quote(origin)}`);
    allowedOrigins.add(normal);
  }
  const listener = await listenHttp(
    (request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== endpoint) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
        return;
      }
      if (validHost !== undefined && !validHost(request, response)) return;
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
  try {
    if (options.watch === true) await hub.watch();
  } catch (error) {
    await listener.close();
    throw error;
  }
  const shownHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${endpoint}`,
    host,
    port,
    close: async () => {
      await handler.close();
      await listener.close();
      await hub.close();
    },
  };
}
