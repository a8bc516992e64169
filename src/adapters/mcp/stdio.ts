import type { JSONRPCMessage, McpServer } from '@modelcontextprotocol/server';
import {
  StdioServerTransport,
  serveStdio as serveSdkStdio,
} from '@modelcontextprotocol/server/stdio';
import type { SkillRuntime } from '../../node/index.js';
import { buildInstance } from './instance.js';
import {
  announceChanges,
  type McpServerOptions,
  reportProblem,
  resourceLimits,
  SkillServerHub,
  serverIdentity,
} from './server.js';
import {
  loadStart,
  type SavedStart,
  type StartState,
  sameStart,
  saveStart,
  startEntry,
} from './start-state.js';

export type { StartState } from './start-state.js';

type StdioStreams = ConstructorParameters<typeof StdioServerTransport>;

export interface ServeStdioOptions extends McpServerOptions {
  /**
   * Keep what the server served (its instructions and the tool's catalog) in this cache and,
   * started again with the same key and budgets, answer `initialize` from it before the runtime
   * is open: give the runtime as a function that opens it. Every other request waits for the
   * runtime. Once it is open, its catalogs are compared with what was answered: a difference is
   * announced (`list_changed`) and saved for the next start.
   */
  readonly startState?: StartState;
  /** The streams the protocol runs over (default: this process's stdin and stdout). */
  readonly input?: NonNullable<StdioStreams[0]>;
  readonly output?: NonNullable<StdioStreams[1]>;
}

export interface StdioServing {
  /**
   * Settles when the client closes the connection (stdin ends) or `close()` was called; rejects
   * when the runtime, opened after the first answer, could not be opened.
   */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** What a client may send before the runtime is open: the opening of a connection. */
function opensConnection(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  if ('id' in message)
    return (
      message.method === 'initialize' ||
      message.method === 'server/discover' ||
      message.method === 'ping'
    );
  return message.method === 'notifications/initialized';
}

/**
 * Serves the runtime over this process's stdin and stdout until the client closes stdin. Both
 * protocol eras are served (the 2025 `initialize` handshake and 2026 `server/discover`); only
 * protocol messages are written to stdout. The client is served from a session of its own
 * (`runtime.openSession`: its activations, grants and audit session), which ends with the
 * connection. With `watch`, the client hears of registry changes; watching starts once the
 * first answer is written, so that nothing but the catalogs stands between the spawn and it.
 * With `startState` and a saved state, not even the catalogs do: the runtime is opened once the
 * first answer is written (or a request needs it).
 */
export async function serveStdio(
  runtime: SkillRuntime | (() => SkillRuntime),
  options: ServeStdioOptions = {},
): Promise<StdioServing> {
  const report = (error: unknown) => reportProblem(options, error);
  const state = options.startState;
  const entry = state === undefined ? undefined : startEntry(state, options);
  let saved: SavedStart | undefined;
  if (state !== undefined && entry !== undefined && typeof runtime === 'function') {
    const found = loadStart(state.cache, entry);
    if (found !== undefined && 'unusable' in found) {
      const where = state.cache.locate?.(entry.name);
      report(
        new Error(
          `the saved start-up state ${where === undefined ? '' : `${where} `}is ignored: ${found.unusable}`,
        ),
      );
    } else saved = found;
  }

  let hub: SkillServerHub | undefined;
  let session: SkillRuntime | undefined;
  const instances = new Set<McpServer>();
  /** Messages that came before the runtime was open, and the way to deliver each. */
  let held: Array<() => void> | undefined = saved === undefined ? undefined : [];
  let failure: unknown;

  /** Saves what the catalogs serve now when it differs from the saved state; true if it did. */
  const keepState = (): boolean => {
    if (state === undefined || entry === undefined || hub === undefined) return false;
    const instructions = hub.instructions();
    const catalogs = hub.catalogs();
    if (saved !== undefined && sameStart(saved, instructions, catalogs)) return false;
    saved = { instructions, tool: catalogs.tool };
    saveStart(state.cache, entry, saved);
    return true;
  };
  const openHub = async (opened: SkillRuntime): Promise<void> => {
    const made = new SkillServerHub(opened, options);
    await made.prepare();
    session = made.openSession();
    hub = made;
    made.onChange(() => {
      for (const mcp of instances) announceChanges(mcp, report);
      keepState();
    });
  };

  if (held === undefined) await openHub(typeof runtime === 'function' ? runtime() : runtime);
  let opening: Promise<void> | undefined;
  let ended = false;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = () => {
      ended = true;
      resolve();
    };
  });
  let handle: { close(): Promise<void> } | undefined;
  /** Opens the runtime (once), then delivers what waited for it and announces any change. */
  const open = (): Promise<void> => {
    opening ??= (async () => {
      if (ended || typeof runtime !== 'function') return;
      try {
        await openHub(runtime());
      } catch (error) {
        failure = error;
        await handle?.close();
        markClosed();
        return;
      }
      const waiting = held ?? [];
      held = undefined;
      for (const deliver of waiting) deliver();
      if (keepState()) for (const mcp of instances) announceChanges(mcp, report);
    })();
    return opening;
  };

  let answered: () => void = () => {};
  const firstAnswer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  // The SDK's entry owns the transport and its callbacks; a subclass is how we learn of the first
  // answer and of the end, and how requests are held until the runtime is open.
  class ObservedTransport extends StdioServerTransport {
    override async start(): Promise<void> {
      const deliver = this.onmessage;
      this.onmessage = (message: JSONRPCMessage) => {
        if (held === undefined || (held.length === 0 && opensConnection(message)))
          deliver?.(message);
        else {
          held.push(() => deliver?.(message));
          void open();
        }
      };
      await super.start();
    }
    override async send(message: JSONRPCMessage): Promise<void> {
      await super.send(message);
      answered();
    }
    override async close(): Promise<void> {
      await super.close();
      markClosed();
    }
  }
  const ready = () => {
    if (hub === undefined || session === undefined) throw new Error('the runtime is not open yet');
    return { hub, session };
  };
  handle = serveSdkStdio(
    () => {
      const mcp = buildInstance({
        ...serverIdentity(options),
        instructions: hub?.instructions() ?? saved?.instructions ?? '',
        limits: resourceLimits(options),
        session: () => ready().session,
        tools: () => ready().hub.tools(),
        frontmatter: (skill, resources) => ready().hub.listedFrontmatter(skill, resources),
      });
      instances.add(mcp);
      const previous = mcp.server.onclose;
      mcp.server.onclose = () => {
        instances.delete(mcp);
        previous?.();
      };
      return mcp;
    },
    { transport: new ObservedTransport(options.input, options.output), onerror: report },
  );
  const answeredOrEnded = Promise.race([firstAnswer, closed]);
  // Answered from the saved state, the server opens the runtime at once after; otherwise the
  // state is saved once the answer is out, for the next start.
  const opened = answeredOrEnded.then(async () => {
    if (held === undefined) keepState();
    else await open();
  });
  let watching: Promise<void> = Promise.resolve();
  if (options.watch === true) {
    // A watch that cannot start leaves a working server that only misses change notices.
    // After the requests that waited for the runtime are answered: the watch's first check
    // reads every skill file.
    watching = opened
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() =>
        ended || hub === undefined
          ? undefined
          : hub.watch().catch((error: unknown) => report(error)),
      );
  }
  const finished = closed.then(async () => {
    await opened;
    await watching;
    await hub?.close();
    await session?.close();
    if (failure !== undefined) throw failure;
  });
  return {
    closed: finished,
    close: async () => {
      await handle?.close();
      markClosed();
      // A runtime that could not be opened is told by `closed`, once.
      await finished.catch(() => {});
    },
  };
}
