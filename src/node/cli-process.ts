import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { SkillhostError } from '../core.js';
import type { CliAgentExit } from '../internal.js';

/**
 * One command-line agent's process: started in its own process group (so that it and every
 * process it starts can be signalled together), its output read, and stopped the one way that
 * leaves nothing behind: input closed, a grace period, SIGTERM to the group, another grace
 * period, SIGKILL to the group; and the group signalled again if the agent exited and left
 * children in it.
 */

/** The most of its error output kept for messages. */
const STDERR_TAIL_BYTES = 8 * 1024;
/** The longest line of output read (a tool result can be large; a runaway one is cut). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Default grace periods: after input closes, and after SIGTERM. */
export const DEFAULT_CLOSE_GRACE_MS = 2_000;

export interface CliProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** What the agent is called in messages (`Claude Code`). */
  readonly label: string;
  /** How to install it, for the message when the program is missing. */
  readonly installHint: string;
}

export interface CliProcess {
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: string | null }>;
  /** Writes one line; false when input is already closed. */
  writeLine(line: string): boolean;
  stderrTail(): string;
  /** The stopping sequence; resolves with how it ended. Safe to call more than once. */
  stop(graceMs?: number): Promise<CliAgentExit>;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits up to `ms` for `promise`; true when it settled in time. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return settled;
}

/** Waits for the group to empty, up to `ms`, looking every 25 ms. */
async function groupGone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 25) {
    if (!groupAlive(pid)) return true;
    await delay(25);
  }
  return !groupAlive(pid);
}

/**
 * Starts the agent. Rejects with `CLI_AGENT_NOT_INSTALLED` when the program cannot be found or
 * run, naming how to install it.
 */
export function startCliProcess(spec: CliProcessSpec): Promise<CliProcess> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env: { ...spec.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      reject(notInstalled(spec, error));
      return;
    }
    let stderr = Buffer.alloc(0);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES)
        stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    // A write after the agent closed its input is an EPIPE, not a crash.
    child.stdin?.on('error', () => {});
    const exited = new Promise<{ code: number | null; signal: string | null }>((settle) => {
      child.once('exit', (code, signal) => settle({ code, signal }));
    });
    child.once('error', (error) => reject(notInstalled(spec, error)));
    child.once('spawn', () => {
      const pid = child.pid as number;
      let stopping: Promise<CliAgentExit> | undefined;
      let inputClosed = false;
      const stderrTail = () => stderr.toString('utf8');
      resolve({
        pid,
        stdin: child.stdin as Writable,
        stdout: child.stdout as Readable,
        exited,
        stderrTail,
        writeLine: (line) => {
          if (inputClosed || child.stdin?.writable !== true) return false;
          child.stdin.write(`${line}\n`);
          return true;
        },
        stop: (graceMs = DEFAULT_CLOSE_GRACE_MS) => {
          stopping ??= (async (): Promise<CliAgentExit> => {
            inputClosed = true;
            child.stdin?.end();
            let stopped: CliAgentExit['stopped'] = 'exited';
            if (!(await within(exited, graceMs))) {
              stopped = 'terminated';
              signalGroup(pid, 'SIGTERM');
              if (!(await within(exited, graceMs))) {
                stopped = 'killed';
                signalGroup(pid, 'SIGKILL');
                await exited;
              }
            }
            // What the agent started in its group and left running goes too.
            if (groupAlive(pid)) {
              signalGroup(pid, 'SIGTERM');
              if (!(await groupGone(pid, graceMs))) {
                signalGroup(pid, 'SIGKILL');
                await groupGone(pid, graceMs);
                stopped = 'killed';
              } else if (stopped === 'exited') stopped = 'terminated';
            }
            const end = await exited;
            return { code: end.code, signal: end.signal, stopped, stderrTail: stderrTail() };
          })();
          return stopping;
        },
      });
    });
  });
}

function notInstalled(spec: CliProcessSpec, error: unknown): SkillhostError {
  const code = (error as { code?: unknown }).code;
  const reason =
    code === 'ENOENT'
      ? `${spec.command} was not found`
      : code === 'EACCES'
        ? `${spec.command} cannot be run (permission denied)`
        : `${spec.command} cannot be started: ${(error as Error).message}`;
  return new SkillhostError(
    'CLI_AGENT_NOT_INSTALLED',
    `${spec.label} is not installed here (${reason}): ${spec.installHint}`,
  );
}

/**
 * Splits a stream into lines (without their ends), calling `onLine` for each; a line longer than
 * `maxBytes` is dropped and reported through `onOversize`. `onEnd` runs once the stream ends.
 */
export function readLines(
  stream: Readable,
  onLine: (line: string) => void,
  handlers: { readonly onEnd?: () => void; readonly onOversize?: (bytes: number) => void } = {},
  maxBytes = MAX_LINE_BYTES,
): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (!skipping) {
        pendingBytes += piece.length;
        if (pendingBytes > maxBytes) {
          skipping = true;
          handlers.onOversize?.(pendingBytes);
          pending = [];
        } else pending.push(piece);
      }
      if (end === -1) break;
      if (!skipping) {
        const line = Buffer.concat(pending).toString('utf8').replace(/\r$/, '');
        if (line.trim() !== '') onLine(line);
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
      start = end + 1;
    }
  });
  stream.once('end', () => {
    if (!skipping && pending.length > 0) {
      const line = Buffer.concat(pending).toString('utf8');
      if (line.trim() !== '') onLine(line);
    }
    handlers.onEnd?.();
  });
}

/**
 * A timer of silence: it fires when nothing was heard for `ms` while it runs. Every event
 * resets it; it is paused while skillhost itself is waiting (an approval).
 */
export class IdleTimer {
  readonly #ms: number;
  readonly #onIdle: () => void;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #paused = 0;

  constructor(ms: number, onIdle: () => void) {
    this.#ms = ms;
    this.#onIdle = onIdle;
  }

  start(): void {
    this.#running = true;
    this.touch();
  }

  stop(): void {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Something was heard: the silence starts again. */
  touch(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#running || this.#paused > 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#running && this.#paused === 0) this.#onIdle();
    }, this.#ms);
    this.#timer.unref();
  }

  /** Runs `work` with the timer paused (nested pauses count). */
  async paused<T>(work: () => Promise<T>): Promise<T> {
    this.#paused += 1;
    clearTimeout(this.#timer);
    try {
      return await work();
    } finally {
      this.#paused -= 1;
      this.touch();
    }
  }
}
