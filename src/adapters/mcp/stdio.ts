import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import {
  StdioServerTransport,
  serveStdio as serveSdkStdio,
} from '@modelcontextprotocol/server/stdio';
import type { SkillRuntime } from '../../node/index.js';
import { announceChanges, type McpServerOptions, SkillServerHub } from './server.js';

export type ServeStdioOptions = McpServerOptions;

export interface StdioServing {
  /** Settles when the client closes the connection (stdin ends) or `close()` was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the runtime over this process's stdin and stdout until the client closes stdin. Both
 * protocol eras are served (the 2025 `initialize` handshake and 2026 `server/discover`); only
 * protocol messages are written to stdout. The client is served from a session of its own
 * (`runtime.openSession`: its activations, grants and audit session), which ends with the
 * connection. With `watch`, the client hears of registry changes; watching starts once the
 * first answer is written, so that nothing but the catalogs stands between the spawn and it.
 */
export async function serveStdio(
  runtime: SkillRuntime,
  options: ServeStdioOptions = {},
): Promise<StdioServing> {
  const hub = new SkillServerHub(runtime, options);
  const report = (error: unknown) => hub.report(error);
  await hub.prepare();
  const session = hub.openSession();
  let ended = false;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = () => {
      ended = true;
      resolve();
    };
  });
  let answered: () => void = () => {};
  const firstAnswer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  // The SDK's entry owns the transport and its callbacks; a subclass is how we learn of the first
  // answer and of the end.
  class ObservedTransport extends StdioServerTransport {
    override async send(message: JSONRPCMessage): Promise<void> {
      await super.send(message);
      answered();
    }
    override async close(): Promise<void> {
      await super.close();
      markClosed();
    }
  }
  const handle = serveSdkStdio(
    () => {
      const mcp = hub.build(session);
      const stop = hub.onChange(() => announceChanges(mcp, report));
      const previous = mcp.server.onclose;
      mcp.server.onclose = () => {
        stop();
        previous?.();
      };
      return mcp;
    },
    { transport: new ObservedTransport(), onerror: report },
  );
  let watching: Promise<void> = Promise.resolve();
  if (options.watch === true) {
    // A watch that cannot start leaves a working server that only misses change notices.
    watching = Promise.race([firstAnswer, closed]).then(() =>
      ended ? undefined : hub.watch().catch((error: unknown) => report(error)),
    );
  }
  const finished = closed.then(async () => {
    await watching;
    await hub.close();
    await session.close();
  });
  return {
    closed: finished,
    close: async () => {
      await handle.close();
      markClosed();
      await finished;
    },
  };
}
