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
 * protocol messages are written to stdout. With `watch`, the client hears of registry changes.
 */
export async function serveStdio(
  runtime: SkillRuntime,
  options: ServeStdioOptions = {},
): Promise<StdioServing> {
  const hub = new SkillServerHub(runtime, options);
  const report = (error: unknown) => hub.report(error);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  // The SDK's entry owns the transport and its callbacks; a subclass is how we learn the end.
  class ObservedTransport extends StdioServerTransport {
    override async close(): Promise<void> {
      await super.close();
      markClosed();
    }
  }
  const handle = serveSdkStdio(
    () => {
      const mcp = hub.build();
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
  // Watching starts once the connection is served: its first scan of the sources then runs
  // behind the client's initialize, not before it.
  if (options.watch === true) {
    try {
      await hub.watch();
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  const finished = closed.then(() => hub.close());
  return {
    closed: finished,
    close: async () => {
      await handle.close();
      markClosed();
      await finished;
    },
  };
}
