import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A model server on 127.0.0.1 that replays scripted responses byte for byte: each request gets
 * the next response of the script, whatever it asked. A response is a status, headers and a body
 * given as chunks, each written on its own (a chunk may end in the middle of a UTF-8 character,
 * as a network may cut it). It records every request, so a test reads what the model was sent.
 */

export interface ScriptedResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Written one after the other; strings as UTF-8. */
  readonly chunks: ReadonlyArray<string | Uint8Array>;
}

export interface FixtureRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: a request body is arbitrary JSON that tests dig into.
  readonly body: any;
}

export interface FixtureServer {
  readonly url: string;
  readonly requests: FixtureRequest[];
  close(): Promise<void>;
}

const open = new Set<FixtureServer>();
afterEach(async () => {
  await Promise.all([...open].map((server) => server.close()));
});

/** One server-sent event: `event: NAME` when named, then the JSON data. */
export function sse(data: unknown, name?: string): string {
  return `${name === undefined ? '' : `event: ${name}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A streamed 200 response of server-sent events. */
export function stream(events: readonly string[]): ScriptedResponse {
  return { headers: { 'content-type': 'text/event-stream' }, chunks: events };
}

/** An error response with a JSON body. */
export function failure(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ScriptedResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    chunks: [JSON.stringify(body)],
  };
}

export async function startFixtureServer(
  script: readonly ScriptedResponse[],
): Promise<FixtureServer> {
  const queue = [...script];
  const requests: FixtureRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text.
      }
      requests.push({ url: request.url ?? '/', headers: request.headers, body });
      const next = queue.shift();
      if (next === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'the fixture has no more responses' } }));
        return;
      }
      response.writeHead(next.status ?? 200, { ...next.headers });
      // Each chunk goes out on its own, so the client reads the body in these pieces.
      void (async () => {
        for (const chunk of next.chunks) {
          response.write(chunk);
          await new Promise((resolve) => setImmediate(resolve));
        }
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const handle: FixtureServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(handle);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(handle);
  return handle;
}
