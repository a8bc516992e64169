import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A network namespace that has only loopback, for one client run: its processes reach
 * 127.0.0.1 inside it and nothing else. The fake model API is served by the test process on a
 * socket bound inside it (handed over by netns-launcher.mjs), so the test records every request
 * in memory while the client, its MCP server and their children stay inside. It is also its own
 * PID namespace: whatever a client leaves running dies when the namespace closes.
 */

const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), 'netns-launcher.mjs');

/** `unshare` and its options: root makes the namespaces directly, anyone else maps root first. */
export function unshareArgs(): string[] {
  const asRoot = process.getuid?.() === 0;
  return [
    ...(asRoot ? [] : ['--map-root-user']),
    '--net',
    '--pid',
    '--fork',
    '--kill-child',
    '--mount-proc',
  ];
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface SpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** In its own process group, as a terminal's foreground job (see `signalGroup`). */
  readonly detached?: boolean;
}

/** A process started inside the namespace. */
export interface NamespacedProcess {
  readonly exited: Promise<Exit>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in the output (stdout, then stderr). */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  signal(name: NodeJS.Signals): void;
  /** Signals its whole process group (it must be `detached`), as a terminal's Ctrl-C does. */
  signalGroup(name: NodeJS.Signals): void;
}

type LauncherMessage =
  | { type: 'ready'; port: number }
  | { type: 'failed'; reason: string }
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'output'; id: number; stream: 'stdout' | 'stderr'; data: string }
  | { type: 'error'; id: number; message: string }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };

interface Tracked {
  stdout: string;
  stderr: string;
  readonly watchers: Set<() => void>;
  settle(exit: Exit): void;
}

export class Namespace {
  /** The listening socket bound to 127.0.0.1 inside the namespace, and its port. */
  readonly listener: { readonly handle: Server; readonly port: number };
  readonly #launcher: ChildProcess;
  readonly #processes = new Map<number, Tracked>();
  #next = 1;

  private constructor(launcher: ChildProcess, handle: Server, port: number) {
    this.#launcher = launcher;
    this.listener = { handle, port };
    launcher.on('message', (message: LauncherMessage) => this.#receive(message));
    launcher.on('exit', () => {
      for (const tracked of this.#processes.values())
        tracked.settle({ code: null, signal: 'SIGKILL' });
    });
  }

  /** Makes the namespace; rejects with the reason when it cannot. */
  static open(timeoutMs = 15_000): Promise<Namespace> {
    return new Promise((resolve, reject) => {
      const launcher = spawn('unshare', [...unshareArgs(), process.execPath, LAUNCHER], {
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      let output = '';
      launcher.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      launcher.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const fail = (reason: string) => {
        clearTimeout(timer);
        launcher.kill('SIGKILL');
        reject(new Error(reason));
      };
      const timer = setTimeout(() => fail('the namespace did not start in time'), timeoutMs);
      launcher.on('error', (error) => fail(`cannot run unshare: ${error.message}`));
      launcher.on('exit', (code) =>
        fail(`cannot make a network namespace (unshare exited ${code}): ${output.trim()}`),
      );
      launcher.once('message', (message: LauncherMessage, handle: unknown) => {
        clearTimeout(timer);
        launcher.removeAllListeners('exit');
        launcher.removeAllListeners('error');
        if (message.type === 'ready')
          resolve(new Namespace(launcher, handle as Server, message.port));
        else fail(message.type === 'failed' ? message.reason : 'the namespace launcher failed');
      });
    });
  }

  #receive(message: LauncherMessage): void {
    if (message.type === 'ready' || message.type === 'failed') return;
    const tracked = this.#processes.get(message.id);
    if (tracked === undefined) return;
    if (message.type === 'output') {
      tracked[message.stream] += message.data;
      for (const wake of tracked.watchers) wake();
    } else if (message.type === 'error') {
      tracked.stderr += `\n[cannot start: ${message.message}]`;
    } else if (message.type === 'exit') {
      tracked.settle({ code: message.code, signal: message.signal });
    }
  }

  /** Starts a process inside the namespace. */
  spawn(spec: SpawnSpec): NamespacedProcess {
    const id = this.#next++;
    let settle: (exit: Exit) => void = () => {};
    const exited = new Promise<Exit>((resolve) => {
      settle = resolve;
    });
    const tracked: Tracked = { stdout: '', stderr: '', watchers: new Set(), settle };
    this.#processes.set(id, tracked);
    this.#launcher.send({ type: 'spawn', id, ...spec });
    return {
      exited,
      stdout: () => tracked.stdout,
      stderr: () => tracked.stderr,
      signal: (name) => this.#launcher.send({ type: 'signal', id, signal: name }),
      signalGroup: (name) => this.#launcher.send({ type: 'signal', id, signal: name, group: true }),
      waitFor: (pattern, timeoutMs) =>
        new Promise((resolve, reject) => {
          const check = () => {
            const match = tracked.stdout.match(pattern) ?? tracked.stderr.match(pattern);
            if (match === null) return;
            done();
            resolve(match);
          };
          const done = () => {
            clearTimeout(timer);
            tracked.watchers.delete(check);
          };
          const timer = setTimeout(() => {
            done();
            reject(new Error(`no ${pattern} in the output in time:\n${tracked.stderr}`));
          }, timeoutMs);
          tracked.watchers.add(check);
          void exited.then(() => {
            check();
            if (tracked.watchers.has(check)) {
              done();
              reject(new Error(`exited before ${pattern} appeared:\n${tracked.stderr}`));
            }
          });
          check();
        }),
    };
  }

  /** Ends the namespace and everything in it. */
  close(): Promise<void> {
    // The model server listening on it closes it too; a second close only reports it (ignored).
    this.listener.handle.close(() => {});
    if (this.#launcher.exitCode !== null || this.#launcher.signalCode !== null)
      return Promise.resolve();
    return new Promise((resolve) => {
      this.#launcher.once('exit', () => resolve());
      this.#launcher.disconnect();
      setTimeout(() => this.#launcher.kill('SIGKILL'), 5_000).unref();
    });
  }
}
