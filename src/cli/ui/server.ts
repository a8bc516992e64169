import { listenHttp } from '../../node/internal.js';
import { LIVE_SCRIPT, SCRIPT_PATH } from './html.js';

/** What the handler reads of a request (Node's `IncomingMessage` has it). */
export interface UiRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** What the handler writes (Node's `ServerResponse` has it). */
export interface UiResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): unknown;
  end(chunk?: string): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** A page: its HTML, or a refusal with a status (not found, a bad parameter). */
export type PageResult =
  | { readonly status: 200; readonly html: string }
  | { readonly status: 400 | 404; readonly message: string };

/** A stream of server-sent events: `send` writes one event; the returned function stops it. */
export type EventStream = (send: (event: string, data: string) => void) => () => void;

/** What the server serves: pages by path, and the event streams of open sessions. */
export interface UiRoutes {
  page(path: string, query: URLSearchParams): PageResult | Promise<PageResult>;
  /** The events of `path` (`/sessions/ID/events`), or undefined when there is no such stream. */
  events(path: string, query: URLSearchParams): EventStream | undefined;
}

/**
 * The browser's rules for every answer: nothing from elsewhere, no script but this origin's
 * own file, no framing, no forms that post, no referrer carrying the token away.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Compares without stopping at the first difference (the token's length is not secret). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1)
    difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

function header(request: UiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
}

/**
 * Why a request is refused, or undefined when it may be answered: only GET and HEAD; the Host
 * must name this loopback listener (a page elsewhere cannot reach it through a name that
 * resolves to 127.0.0.1); an Origin, when sent, must be this one; the token must be given.
 */
export function refusal(
  request: UiRequest,
  options: { readonly token: string; readonly port: number },
): { readonly status: number; readonly message: string } | undefined {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD')
    return { status: 405, message: 'This inspector is read-only: only GET and HEAD are answered' };
  const hosts = [`127.0.0.1:${options.port}`, `localhost:${options.port}`];
  const host = header(request, 'host');
  if (host === undefined || !hosts.includes(host.toLowerCase()))
    return { status: 421, message: `Host must be ${hosts[0]}` };
  const origin = header(request, 'origin');
  if (origin !== undefined && !hosts.map((name) => `http://${name}`).includes(origin.toLowerCase()))
    return { status: 403, message: 'Requests from another origin are refused' };
  const fetchSite = header(request, 'sec-fetch-site');
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none')
    return { status: 403, message: 'Requests from another site are refused' };
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const token = url.searchParams.get('token');
  if (token === null || !sameText(token, options.token))
    return {
      status: 401,
      message: 'Open the address skillhost ui printed: it carries the token every request needs',
    };
  return undefined;
}

function plain(response: UiResponse, status: number, message: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  response.end(`${message}\n`);
}

/** The request handler: the checks of `refusal`, then a page, the script, or an event stream. */
export function createUiHandler(options: {
  readonly token: string;
  readonly port: () => number;
  readonly routes: UiRoutes;
  /** A problem while making a page (it is answered with 500 and told here). */
  readonly onError?: (error: unknown) => void;
}): (request: UiRequest, response: UiResponse) => void {
  return (request, response) => {
    const failed = (error: unknown) => {
      options.onError?.(error);
      plain(
        response,
        500,
        `Could not make this page: ${error instanceof Error ? error.message : String(error)}`,
      );
    };
    const refused = refusal(request, { token: options.token, port: options.port() });
    if (refused !== undefined) {
      plain(response, refused.status, refused.message);
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname === '/' ? '/skills' : url.pathname;
    try {
      if (path === SCRIPT_PATH) {
        response.writeHead(200, {
          ...SECURITY_HEADERS,
          'content-type': 'text/javascript; charset=utf-8',
        });
        response.end(request.method === 'HEAD' ? undefined : LIVE_SCRIPT);
        return;
      }
      const stream = options.routes.events(path, url.searchParams);
      if (stream !== undefined) {
        response.writeHead(200, {
          ...SECURITY_HEADERS,
          'content-type': 'text/event-stream; charset=utf-8',
        });
        response.write(': open\n\n');
        const stop = stream((event, data) =>
          response.write(`event: ${event}\ndata: ${data.replace(/\n/g, '\ndata: ')}\n\n`),
        );
        response.on('close', stop);
        return;
      }
      Promise.resolve(options.routes.page(path, url.searchParams)).then((result) => {
        if (result.status !== 200) {
          plain(response, result.status, result.message);
          return;
        }
        response.writeHead(200, {
          ...SECURITY_HEADERS,
          'content-type': 'text/html; charset=utf-8',
        });
        response.end(request.method === 'HEAD' ? undefined : result.html);
      }, failed);
    } catch (error) {
      failed(error);
    }
  };
}

export interface UiServer {
  /** The address to open, token included. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the routes on 127.0.0.1 only (port 0: any free port), behind the checks of `refusal`. */
export async function serveUi(options: {
  readonly routes: UiRoutes;
  readonly token: string;
  readonly port: number;
  readonly onError?: (error: unknown) => void;
}): Promise<UiServer> {
  let port = options.port;
  const handler = createUiHandler({
    token: options.token,
    port: () => port,
    routes: options.routes,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const listener = await listenHttp(handler, { port: options.port, host: '127.0.0.1' });
  port = listener.port;
  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(options.token)}`,
    port,
    close: () => listener.close(),
  };
}
