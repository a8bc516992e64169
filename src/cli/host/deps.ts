import { unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
// The node modules one by one, not the node entry: --help and --version load no library code.
import { openJsonlAuditSink, readAuditLogFile } from '../../node/audit-sink.js';
import { createDirectoryCacheStore } from '../../node/cache-store.js';
import { createNodeFileSystem } from '../../node/fs.js';
import { randomId, sha256 } from '../../node/hash.js';
import type { ScriptRunner } from '../../node/index.js';
import type * as Sandbox from '../../node/sandbox.js';
import type * as SessionStore from '../../node/session-store.js';
import type * as WorkspaceFilesModule from '../../node/workspace-files.js';
import type { CliDeps } from '../io.js';
import { readUserConfig, writeUserConfig } from './config.js';
import { openUrl, readTextFile, selfCommand, writeTextFile } from './files.js';

/**
 * A module of the node entry, loaded on first use, synchronously (Node loads an ES module with
 * `require` since 20.19): the sandbox runner and the session store bring the whole core with
 * them, which a command that never runs a script or keeps a session (list, validate, mcp until
 * its first answer) does not pay for.
 */
function later<T>(path: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= createRequire(import.meta.url)(path) as T;
    return loaded;
  };
}

const sandbox = later<typeof Sandbox>('../../node/sandbox.js');
const sessionStore = later<typeof SessionStore>('../../node/session-store.js');
const workspaceFilesModule = later<typeof WorkspaceFilesModule>('../../node/workspace-files.js');

/** The bubblewrap runner, made when a script first needs it. */
function lazyRunner(): ScriptRunner {
  let runner: ScriptRunner | undefined;
  const get = () => {
    runner ??= sandbox().createSandboxRunner({ homeDir: homedir() });
    return runner;
  };
  return {
    run: (request) => get().run(request),
    explain: (request) => {
      const made = get();
      if (made.explain === undefined) throw new Error('This runner cannot explain a run');
      return made.explain(request);
    },
    runCommand: (request) => {
      const made = get();
      if (made.runCommand === undefined) throw new Error('This runner cannot run a command');
      return made.runCommand(request);
    },
    sandbox: () => get().sandbox(),
  };
}

/** The real world for the command line: this process's working directory, home and environment. */

export function createNodeCliDeps(): CliDeps {
  // SKILLHOST_THREADS=1 keeps every command to one thread; =2 reads ahead in a walk of any size.
  const threads = process.env.SKILLHOST_THREADS;
  return {
    fs: createNodeFileSystem(
      threads === '1' ? { readAheadFrom: Infinity } : threads === '2' ? { readAheadFrom: 1 } : {},
    ),
    cwd: process.cwd(),
    homeDir: homedir(),
    env: process.env,
    resolvePath: (base, path) => resolve(base, path),
    hash: sha256,
    cacheStore: createDirectoryCacheStore,
    readConfig: readUserConfig,
    writeConfig: writeUserConfig,
    runner: lazyRunner(),
    auditSink: (path, options) => openJsonlAuditSink(path, options),
    readText: readAuditLogFile,
    removeFile: (path) => unlinkSync(path),
    now: () => new Date(),
    newSessionId: randomId,
    sessions: (directory) => sessionStore().createSessionStore(directory),
    readPrivateFile: (path) => sessionStore().readPrivateFile(path),
    platform: process.platform,
    readTextFile,
    writeTextFile,
    selfCommand,
    openUrl,
    workspaceFiles: (workspace) => workspaceFilesModule().createWorkspaceFiles(workspace),
    onInterrupt: (listener, options = {}) => {
      let pressed = 0;
      const handler = () => {
        pressed += 1;
        if (pressed === 1 || options.every === true) {
          listener();
          return;
        }
        // A second Ctrl-C leaves at once, as an interrupted command does.
        process.off('SIGINT', handler);
        process.exit(130);
      };
      process.on('SIGINT', handler);
      return () => {
        process.off('SIGINT', handler);
      };
    },
  };
}

/**
 * The terminal's input for confirmations: a TTY flag and one line at a time. The line reader is
 * made per question and closed after it, so a waiting prompt never keeps the process alive.
 */
export function createTerminalInput(): {
  readonly isTTY: boolean;
  readLine(options?: { readonly signal?: AbortSignal }): Promise<string | undefined>;
  readAll(maxBytes: number): Promise<string>;
} {
  return {
    // Read when asked: touching process.stdin makes its stream (and loads the stream and readline
    // modules), which a command that never reads its input does not pay for.
    get isTTY() {
      return process.stdin.isTTY === true;
    },
    readAll: (maxBytes) =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          process.stdin.off('data', onData);
          process.stdin.pause();
          resolve(Buffer.concat(chunks).toString('utf8'));
        };
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            process.stdin.off('end', done);
            process.stdin.off('data', onData);
            process.stdin.pause();
            reject(new Error(`the input is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        };
        process.stdin.on('data', onData);
        process.stdin.once('end', done);
      }),
    readLine: async (options = {}) => {
      const { signal } = options;
      if (signal?.aborted === true) return undefined;
      const { createInterface } = await import('node:readline');
      return new Promise((resolve) => {
        const reader = createInterface({ input: process.stdin, terminal: false });
        let answered = false;
        // An abort (Ctrl-C at a chat's prompt) closes the reader: the line is never read.
        const onAbort = () => reader.close();
        signal?.addEventListener('abort', onAbort, { once: true });
        reader.once('line', (line) => {
          answered = true;
          reader.close();
          resolve(line);
        });
        reader.once('close', () => {
          signal?.removeEventListener('abort', onAbort);
          if (!answered) {
            // A closed reader leaves stdin flowing: paused, it keeps nothing alive.
            process.stdin.pause();
            resolve(undefined);
          }
        });
      });
    },
  };
}
