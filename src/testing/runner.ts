import type {
  CapturedOutput,
  CommandRunRequest,
  NotStagedFiles,
  ScriptRunner,
  ScriptRunRequest,
  ScriptRunResult,
} from '../deps.js';
import { SkillhostError } from '../errors.js';

/** What a scripted run answers; every field is optional and defaults to a clean, quiet exit. */
export interface ScriptedOutcome {
  /** Everything the script "wrote" to stdout; it is captured as the real runner captures it. */
  readonly stdout?: string;
  readonly stderr?: string;
  /** Default 0, or null when the run timed out or was killed by a signal. */
  readonly exitCode?: number | null;
  /** Default null, or `SIGKILL` when the run timed out or its output was over the limit. */
  readonly signal?: string | null;
  readonly timedOut?: boolean;
  /** Default: whether stdout and stderr together are longer than `limits.maxOutputBytes`. */
  readonly outputLimited?: boolean;
  /** Default 0: a scripted run takes no time. */
  readonly durationMs?: number;
  /** The isolation the result reports; default the runner's (`bubblewrap` unless configured). */
  readonly sandbox?: 'bubblewrap' | 'none';
  /** Files of the skill the run reports as left out of the sandbox (default: none). */
  readonly notStaged?: NotStagedFiles;
  /** The resource limit the run reports it was stopped at (default: none). */
  readonly resourceLimit?: 'write' | 'memory';
  /** The bytes the run reports as written (default: not reported). */
  readonly writtenBytes?: number;
}

/** Answers one run request; it may look at the script's bytes, its arguments and its limits. */
export type ScriptedHandler = (
  request: ScriptRunRequest,
) => ScriptedOutcome | Promise<ScriptedOutcome>;

export interface ScriptedRunnerOptions {
  /** The isolation results report unless the handler says otherwise (default `bubblewrap`). */
  readonly sandbox?: 'bubblewrap' | 'none';
  /**
   * Makes the runner behave as a machine without an OS sandbox, for this reason: `sandbox()`
   * reports it, and runs are refused with SANDBOX_UNAVAILABLE as the real runner refuses them,
   * unless the request allows unsandboxed runs (then results report `none`).
   */
  readonly unavailable?: string;
}

/** A `ScriptRunner` that never starts a process, and remembers what it was asked to run. */
export interface ScriptedRunner extends ScriptRunner {
  /**
   * Every request received, in order (refused ones included). A shell command (`runCommand`)
   * reaches the handler as a bash script named `command.sh` whose bytes are the command.
   */
  readonly requests: readonly ScriptRunRequest[];
  /** The shell commands received (`runCommand`), in order. */
  readonly commands: readonly CommandRunRequest[];
  runCommand(request: CommandRunRequest): Promise<ScriptRunResult>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Captures output as the real runner does: the first `maxCapturedBytes` UTF-8 bytes as the head,
 * the last `maxCapturedBytes` of the rest as the tail, and the bytes between them counted only.
 *
 * @example captureOutput('x'.repeat(10), 4) // { head: 'xxxx', tail: 'xxxx', totalBytes: 10, omittedBytes: 2 }
 */
export function captureOutput(text: string, maxCapturedBytes: number): CapturedOutput {
  const bytes = encoder.encode(text);
  const limit = Math.max(0, Math.floor(maxCapturedBytes));
  const head = bytes.subarray(0, limit);
  const rest = bytes.subarray(head.length);
  const tail = rest.subarray(Math.max(0, rest.length - limit));
  return {
    head: decoder.decode(head),
    tail: decoder.decode(tail),
    totalBytes: bytes.length,
    omittedBytes: bytes.length - head.length - tail.length,
  };
}

/**
 * A script runner for tests: it runs nothing, records each request in `requests`, and answers
 * with what `handler` returns (by default a run that prints nothing and exits 0).
 *
 * @example const runner = createScriptedRunner((request) => ({ stdout: `hello ${request.args[0]}\n` }));
 */
export function createScriptedRunner(
  handler: ScriptedHandler = () => ({}),
  options: ScriptedRunnerOptions = {},
): ScriptedRunner {
  const requests: ScriptRunRequest[] = [];
  const commands: CommandRunRequest[] = [];
  const unavailable = options.unavailable;
  const runner: ScriptedRunner = {
    requests,
    commands,
    runCommand: (request) => {
      commands.push(request);
      return runner.run({
        skillDirectory: '',
        scriptPath: 'command.sh',
        scriptBytes: encoder.encode(request.command),
        interpreter: 'bash',
        args: [],
        limits: request.limits,
        ...(request.workspace === undefined ? {} : { workspace: request.workspace }),
        ...(request.env === undefined ? {} : { env: request.env }),
        ...(request.allowUnsandboxed === true ? { allowUnsandboxed: true } : {}),
      });
    },
    sandbox: () =>
      unavailable === undefined
        ? { available: true, reason: 'a scripted runner: nothing is run' }
        : { available: false, reason: unavailable },
    run: async (request: ScriptRunRequest): Promise<ScriptRunResult> => {
      requests.push(request);
      if (unavailable !== undefined && request.allowUnsandboxed !== true) {
        throw new SkillhostError(
          'SANDBOX_UNAVAILABLE',
          `Cannot run scripts in a sandbox: ${unavailable}`,
        );
      }
      const outcome = await handler(request);
      const { limits } = request;
      const stdout = captureOutput(outcome.stdout ?? '', limits.maxCapturedBytes);
      const stderr = captureOutput(outcome.stderr ?? '', limits.maxCapturedBytes);
      const timedOut = outcome.timedOut ?? false;
      const outputLimited =
        outcome.outputLimited ?? stdout.totalBytes + stderr.totalBytes > limits.maxOutputBytes;
      const killed = timedOut || outputLimited || outcome.resourceLimit !== undefined;
      return {
        exitCode: outcome.exitCode !== undefined ? outcome.exitCode : killed ? null : 0,
        signal: outcome.signal !== undefined ? outcome.signal : killed ? 'SIGKILL' : null,
        timedOut,
        outputLimited,
        durationMs: outcome.durationMs ?? 0,
        stdout,
        stderr,
        sandbox:
          outcome.sandbox ??
          (unavailable === undefined ? (options.sandbox ?? 'bubblewrap') : 'none'),
        ...(outcome.notStaged === undefined ? {} : { notStaged: outcome.notStaged }),
        ...(outcome.resourceLimit === undefined ? {} : { resourceLimit: outcome.resourceLimit }),
        ...(outcome.writtenBytes === undefined ? {} : { writtenBytes: outcome.writtenBytes }),
      };
    },
  };
  return runner;
}
