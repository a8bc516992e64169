import { type PolicyConfig, SkillhostError } from '../core.js';
import {
  type CliAgentDriver,
  type CliAgentExit,
  type CliAgentSession,
  type CliAgentStartOptions,
  type CliMcpServer,
  EventStream,
  type LoopEvent,
} from '../internal.js';
import { classifyAcpFailure } from './acp-stream.js';
import { probeCliAgent, probeOnce } from './cli-probe.js';
import { type CliProcess, IdleTimer, readLines, startCliProcess } from './cli-process.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from './cli-session.js';
import { CursorPrintReader, cursorPrintConfig } from './cursor-print-stream.js';
import { object } from './json-fields.js';
import { makePrivateFolder, type PrivateFolder } from './private-files.js';

/**
 * Cursor's print mode as a provider, for `--cursor-print` only (see `cursorPrintWarning`): one
 * `agent -p --output-format stream-json` process per turn, the next turn continuing the chat
 * with `--resume=ID`. Print mode cannot ask for permission, so nothing reaches the permission
 * callback: Cursor's own tools are bounded by the permission settings skillhost writes for the
 * session (`cursorPrintConfig`), never `--force`; skillhost's tools by its MCP server, which
 * decides every call by the policy. The session's settings (`cli-config.json`, `mcp.json` with
 * skillhost's server) are in a private folder named by `CURSOR_CONFIG_DIR`; the prompt goes on
 * standard input, never in argv.
 */

export interface CursorPrintSpec {
  readonly label: string;
  readonly command: string;
  readonly prefix: readonly string[];
  readonly minimum: string;
  readonly installHint: string;
  readonly loginHint: string;
}

export interface CursorPrintOptions {
  readonly spec: CursorPrintSpec;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly policy: PolicyConfig;
  /** Where the private folder of a session is made (default: the system's temporary folder). */
  readonly tempDir?: string;
}

/** Flags that would let print mode run what its settings do not allow: never passed. */
const FORCING = new Set(['-f', '--force', '--yolo']);

const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:/@[\]-]{0,199}$/;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Cursor's `mcp.json`: skillhost's server, by the name its tools will carry. */
export function cursorMcpConfig(server: CliMcpServer): string {
  const entry =
    server.transport === 'stdio'
      ? { command: server.command, args: server.args, env: server.env }
      : { url: server.url, ...(server.headers === undefined ? {} : { headers: server.headers }) };
  return `${JSON.stringify({ mcpServers: { [server.name]: entry } }, null, 2)}\n`;
}

/** The argv of one turn, after the program; throws on a model or chat id that could pose as a flag. */
export function cursorPrintArguments(plan: {
  readonly workspace: string;
  readonly model?: string;
  readonly resume?: string;
}): string[] {
  if (plan.model !== undefined && !MODEL.test(plan.model))
    throw new SkillhostError('MODEL_UNKNOWN', `${JSON.stringify(plan.model)} is not a model name`);
  if (plan.resume !== undefined && !SESSION_ID.test(plan.resume))
    throw new SkillhostError(
      'SESSION_NOT_FOUND',
      `${JSON.stringify(plan.resume)} is not a Cursor chat id`,
    );
  const argv = [
    '-p',
    '--output-format',
    'stream-json',
    // skillhost's own MCP server, from the session's mcp.json: approved so print mode loads it.
    '--approve-mcps',
    `--workspace=${plan.workspace}`,
    ...(plan.model === undefined ? [] : [`--model=${plan.model}`]),
    ...(plan.resume === undefined ? [] : [`--resume=${plan.resume}`]),
  ];
  const bad = argv.find((argument) => FORCING.has(argument.split('=')[0] as string));
  if (bad !== undefined)
    throw new SkillhostError(
      'INTERNAL_ERROR',
      `refusing to start Cursor's CLI with ${bad}: skillhost never lets it run what its settings do not allow`,
    );
  return argv;
}

export function createCursorPrintDriver(options: CursorPrintOptions): CliAgentDriver {
  const { spec } = options;
  const probe = probeOnce(() =>
    probeCliAgent({
      label: spec.label,
      command: spec.command,
      prefix: spec.prefix,
      minimum: spec.minimum,
      installHint: spec.installHint,
      env: options.env,
      cwd: options.cwd,
    }),
  );
  return {
    provider: 'cursor',
    probe,
    start: async (start) => startCursorPrintSession(options, start),
  };
}

function startCursorPrintSession(
  options: CursorPrintOptions,
  start: CliAgentStartOptions,
): CliAgentSession {
  const { spec } = options;
  const folder: PrivateFolder = makePrivateFolder('skillhost-cursor-', options.tempDir);
  try {
    // Named as Cursor reads them in its config folder (plain names, as the private folder takes).
    folder.write('cli-config.json', cursorPrintConfig(options.policy));
    folder.write('mcp.json', cursorMcpConfig(start.mcpServer));
  } catch (error) {
    folder.remove();
    throw error;
  }
  const env = { ...start.env, CURSOR_CONFIG_DIR: folder.path };
  const events = new EventStream<LoopEvent>();
  const reader = new CursorPrintReader('cursor', spec.loginHint);
  const queue: string[] = [];
  let child: CliProcess | undefined;
  let inTurn = false;
  let interrupted = false;
  let first = start.resume === undefined;
  let chat = start.resume;
  let closing: Promise<CliAgentExit> | undefined;
  let lastExit: CliAgentExit = { code: 0, signal: null, stopped: 'exited', stderrTail: '' };
  const emit = (batch: readonly LoopEvent[]) => {
    for (const event of batch) {
      idle.touch();
      events.push(event);
    }
  };
  const idle = new IdleTimer(start.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => {
    const seconds = Math.round((start.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) / 1000);
    if (!reader.ended)
      emit(
        reader.fail({
          code: 'CLI_AGENT_IDLE_TIMEOUT',
          message: `${spec.label} said nothing for ${seconds} s during a turn; it was stopped`,
        }),
      );
    void child?.stop(start.closeGraceMs);
  });

  const finish = async (process: CliProcess, drained: Promise<void>) => {
    const exit = await process.exited;
    // Whatever it left in its group goes too; then the rest of its output is read.
    lastExit = await process.stop(start.closeGraceMs);
    await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    idle.stop();
    if (!reader.ended) {
      const tail = process.stderrTail().trim();
      const failure = classifyAcpFailure(
        spec.label,
        {
          message: `exited (${exit.code ?? exit.signal}) before the turn ended${tail === '' ? '' : `: ${tail.slice(-500)}`}`,
        },
        spec.loginHint,
      );
      emit(reader.fail(failure, undefined, interrupted));
    }
    chat = reader.sessionId ?? chat;
    child = undefined;
    inTurn = false;
    next();
  };

  const deliver = async (message: string) => {
    inTurn = true;
    interrupted = false;
    reader.beginTurn();
    const prompt = first ? `${start.system}\n\n${message}` : message;
    first = false;
    let started: CliProcess;
    try {
      started = await startCliProcess({
        command: spec.command,
        args: [
          ...spec.prefix,
          ...cursorPrintArguments({
            workspace: start.workspace?.path ?? start.cwd,
            ...(start.model === undefined ? {} : { model: start.model }),
            ...(chat === undefined ? {} : { resume: chat }),
          }),
        ],
        cwd: start.cwd,
        env,
        label: spec.label,
        installHint: spec.installHint,
      });
    } catch (error) {
      const failure = SkillhostError.isInstance(error)
        ? { code: error.code, message: error.message }
        : { code: 'CLI_AGENT_FAILED' as const, message: String(error) };
      emit(reader.fail(failure));
      inTurn = false;
      next();
      return;
    }
    child = started;
    idle.start();
    const drained = new Promise<void>((resolve) =>
      readLines(
        started.stdout,
        (line) => {
          // Every line resets the idle timer, whether or not it is an event of ours.
          idle.touch();
          let parsed: unknown;
          try {
            parsed = JSON.parse(line);
          } catch {
            return;
          }
          if (!reader.ended) emit(reader.read(object(parsed) ?? {}));
        },
        { onEnd: resolve },
      ),
    );
    started.stdin.end(`${prompt}\n`);
    void finish(started, drained);
  };

  const next = () => {
    if (inTurn || closing !== undefined) return;
    const message = queue.shift();
    if (message !== undefined) void deliver(message);
  };

  return {
    provider: 'cursor',
    events,
    send: (message) => {
      if (closing !== undefined)
        throw new SkillhostError('CLI_AGENT_FAILED', `the ${spec.label} session is closed`);
      queue.push(message);
      next();
    },
    cancel: () => {
      if (child === undefined) return;
      interrupted = true;
      void child.stop(start.closeGraceMs);
    },
    close: () => {
      closing ??= (async () => {
        idle.stop();
        try {
          if (child !== undefined) lastExit = await child.stop(start.closeGraceMs);
          return lastExit;
        } finally {
          folder.remove();
          events.end();
        }
      })();
      return closing;
    },
    get agentSession() {
      return reader.sessionId ?? chat;
    },
    get model() {
      return reader.model;
    },
  };
}
