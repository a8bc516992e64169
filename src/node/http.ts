import type { IncomingMessage, ServerResponse } from 'node:http';

export type { IncomingMessage, ServerResponse };

export interface HttpListener {
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  /** Stops accepting, drops open connections, and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Listens for HTTP on `host:port` with a request handler: the one place the adapters get a
 * socket (the MCP server's Streamable HTTP transport), so that they import no `node:*` module.
 */
export async function listenHttp(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  options: { readonly port: number; readonly host: string },
): Promise<HttpListener> {
  // Loaded here, not at the top: only the MCP server over HTTP listens.
  const { createServer } = await import('node:http');
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
