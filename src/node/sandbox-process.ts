import type { CapturedOutput, ScriptRunRequest, ScriptRunResult } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { childProcess, SYSTEM_PATH } from './sandbox-system.js';
import { watchWrites } from './sandbox-writes.js';

/** Keeps the first `limit` bytes of a stream and the last `limit` of the rest; counts the whole. */
class OutputCapture {
  readonly #limit: number;
  #head = Buffer.alloc(0);
  #tail: Buffer[] = [];
  #tailBytes = 0;
  total = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.#head.length < this.#limit) {
      const room = this.#limit - this.#head.length;
      this.#head = Buffer.concat([this.#head, rest.subarray(0, room)]);
      rest = rest.subarray(room);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#limit) {
      this.#tailBytes -= (this.#tail.shift() as Buffer).length;
    }
  }

  result(): CapturedOutput {
    const joined = Buffer.concat(this.#tail);
    const tail = joined.subarray(Math.max(0, joined.length - this.#limit));
    return {
      head: this.#head.toString('utf8'),
      tail: tail.toString('utf8'),
      totalBytes: this.total,
      omittedBytes: this.total - this.#head.length - tail.length,
    };
  }
}

/**
 * What the interpreters print when an allocation fails at the memory limit: Node's (an array
 * buffer, or its heap), Python's, the C library's and C++'s.
 */
const OUT_OF_MEMORY =
  /Array buffer allocation failed|JavaScript heap out of memory|FATAL ERROR: [^\n]*[Aa]llocation failed|\bMemoryError\b|Cannot allocate memory|std::bad_alloc|[Oo]ut of memory/;

/** Whether a run that failed did so for want of memory, as its error output says. */
export function failedForMemory(
  exitCode: number | null,
  signal: string | null,
  stderr: CapturedOutput,
): boolean {
  if (exitCode === 0 && signal === null) return false;
  return OUT_OF_MEMORY.test(stderr.head) || OUT_OF_MEMORY.test(stderr.tail);
}

/** How one sandboxed (or explicitly unsandboxed) process is started. */
export interface ProcessPlan {
  readonly command: string;
  readonly argv: readonly string[];
  /** The environment of the started program (bubblewrap builds the script's own inside). */
  readonly environment: Record<string, string>;
  readonly cwd: string | undefined;
  /** Whom the process runs as, when skillhost runs as root. */
  readonly user: { readonly uid: number; readonly gid: number } | undefined;
  readonly sandbox: 'bubblewrap' | 'none';
  /** Descriptors handed to the process as 3, 4, ... (the seccomp program). */
  readonly extraFds: readonly number[];
  /** How the write budget is watched (see sandbox-writes.ts). */
  readonly writes: {
    readonly mounts: readonly string[];
    readonly countDiskWrites: boolean;
    /**
     * The process waits on one more descriptor, after `extraFds`, until the watch holds the
     * mounts (bubblewrap's --block-fd).
     */
    readonly gated: boolean;
  };
}

/**
 * Starts the process in its own process group, captures its output within the limits, and kills
 * the whole group on timeout, on output overflow, past the write budget and when it ends (so
 * nothing outlives the run).
 */
export function execute(plan: ProcessPlan, request: ScriptRunRequest): Promise<ScriptRunResult> {
  const started = performance.now();
  const stdout = new OutputCapture(request.limits.maxCapturedBytes);
  const stderr = new OutputCapture(request.limits.maxCapturedBytes);
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(plan.command, plan.argv, {
      stdio: [
        'ignore',
        'pipe',
        'pipe',
        ...plan.extraFds,
        ...(plan.writes.gated ? ['pipe' as const] : []),
      ],
      detached: true,
      env: plan.sandbox === 'bubblewrap' ? { PATH: SYSTEM_PATH } : plan.environment,
      ...(plan.cwd === undefined ? {} : { cwd: plan.cwd }),
      ...(plan.user === undefined ? {} : { uid: plan.user.uid, gid: plan.user.gid }),
    });
    let timedOut = false;
    let outputLimited = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.limits.timeoutMs);
    let writeLimited = false;
    let unwatched = false;
    const gate = plan.writes.gated
      ? (child.stdio[3 + plan.extraFds.length] as import('node:stream').Duplex | null)
      : undefined;
    // bubblewrap reads its byte and closes its end: whatever the socket says after is no news.
    gate?.on('error', () => {});
    const writes =
      child.pid === undefined
        ? undefined
        : watchWrites({
            pid: child.pid,
            maxWriteBytes: request.limits.maxWriteBytes,
            mounts: plan.writes.mounts,
            countDiskWrites: plan.writes.countDiskWrites,
            onExceeded: () => {
              writeLimited = true;
              killGroup();
            },
            onReady: (found) => {
              if (found) {
                gate?.end('.');
                return;
              }
              unwatched = true;
              killGroup();
            },
          });
    const onData = (capture: OutputCapture) => (chunk: Buffer) => {
      capture.push(chunk);
      if (!outputLimited && stdout.total + stderr.total > request.limits.maxOutputBytes) {
        outputLimited = true;
        killGroup();
      }
    };
    child.stdout!.on('data', onData(stdout));
    child.stderr!.on('data', onData(stderr));
    child.on('error', (error) => {
      clearTimeout(timer);
      writes?.stop();
      reject(
        new SkillhostError('SANDBOX_UNAVAILABLE', `Cannot start the script: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      // Whatever the script started and left behind goes with its process group.
      killGroup();
      const written = writes?.stop();
      if (unwatched) {
        reject(
          new SkillhostError(
            'SANDBOX_UNAVAILABLE',
            "The sandbox's writable mounts could not be found to count what the script writes; it was stopped before it started",
          ),
        );
        return;
      }
      const errors = stderr.result();
      const limit =
        writeLimited || written?.exceeded === true
          ? ('write' as const)
          : !timedOut && !outputLimited && failedForMemory(exitCode, signal, errors)
            ? ('memory' as const)
            : undefined;
      resolve({
        exitCode,
        signal,
        timedOut,
        outputLimited,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.result(),
        stderr: errors,
        sandbox: plan.sandbox,
        ...(limit === undefined ? {} : { resourceLimit: limit }),
        ...(written === undefined ? {} : { writtenBytes: written.writtenBytes }),
      });
    });
  });
}
