import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
// The node modules one by one, not the node entry: --help and --version load no library code.
import { createJsonlAuditSink, readAuditLogFile } from '../../node/audit-sink.js';
import { createDirectoryCacheStore } from '../../node/cache-store.js';
import { createNodeFileSystem } from '../../node/fs.js';
import { sha256 } from '../../node/hash.js';
import { createSandboxRunner } from '../../node/sandbox.js';
import { createSessionStore, readPrivateFile } from '../../node/session-store.js';
import { createWorkspaceFiles } from '../../node/workspace-files.js';
import type { CliDeps } from '../io.js';
import { readUserConfig, writeUserConfig } from './config.js';

/**
 * Tunes this process for a short command over possibly many files: V8's young generation is
 * kept from growing. A command that keeps ten thousand skills would otherwise let it grow to
 * 32 MB, which is most of its peak memory; kept small, the peak stays near the I/O floor's.
 * Only the CLI calls this: a library never changes its host's V8 settings. A long-running server
 * (`skillhost mcp`) is left alone: there, a grown young generation saves time on every call.
 */
export function prepareCliProcess(argv: readonly string[] = []): void {
  if (argv[0] === 'mcp') return;
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** The real world for the command line: this process's working directory, home and environment. */

export function createNodeCliDeps(): CliDeps {
  return {
    fs: createNodeFileSystem(),
    cwd: process.cwd(),
    homeDir: homedir(),
    env: process.env,
    resolvePath: (base, path) => resolve(base, path),
    hash: sha256,
    cacheStore: createDirectoryCacheStore,
    readConfig: readUserConfig,
    writeConfig: writeUserConfig,
    runner: createSandboxRunner({ homeDir: homedir() }),
    auditSink: (path) => createJsonlAuditSink(path),
    readText: readAuditLogFile,
    now: () => new Date(),
    newSessionId: () => randomUUID(),
    sessions: createSessionStore,
    readPrivateFile,
    workspaceFiles: createWorkspaceFiles,
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
    isTTY: process.stdin.isTTY === true,
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
