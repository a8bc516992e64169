import type { LoopStatus } from '../../internal.js';
import { SkillhostError } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CliDeps, CliIO } from '../io.js';
import {
  type AgentSession,
  openAgentSession,
  resumeState,
  SESSION_OPTIONS,
} from './agent-session.js';

export const RUN_OPTIONS = SESSION_OPTIONS;
/** The provider's key, as agent runs read it (skillhost doctor checks for one). */
export { apiKey } from './agent-session.js';

/** Exit codes by how the run ended. */
export const EXIT_CODES: Readonly<Record<LoopStatus, number>> = {
  done: 0,
  failed: 1,
  refused: 3,
  limit: 4,
  interrupted: 130,
};

const MAX_TASK_BYTES = 1024 * 1024;

async function readTask(io: CliIO, given: string | undefined): Promise<string | undefined> {
  if (given !== undefined) return given;
  const input = io.stdin;
  if (input === undefined || input.isTTY === true || input.readAll === undefined) return undefined;
  const text = await input.readAll(MAX_TASK_BYTES);
  return text.trim() === '' ? undefined : text.trim();
}

/** `skillhost agent run NAME [TASK]`: one task, to the end. */
export async function runAgentCommand(
  argv: readonly string[],
  io: CliIO,
  deps: CliDeps,
): Promise<number> {
  const args = parseArgs(argv, RUN_OPTIONS);
  const [name, taskArgument, ...extra] = args.positionals;
  if (name === undefined || extra.length > 0)
    throw new UsageError('usage: skillhost agent run NAME [TASK] [options]');
  const json = args.options.json === true;
  const { store, resumed } = resumeState(args, deps, name);
  const task = await readTask(io, taskArgument);
  if (
    task === undefined &&
    (resumed === undefined || resumed.messages.at(-1)?.role === 'assistant')
  )
    throw new UsageError('give the task as an argument or on standard input');

  let session: AgentSession | undefined;
  try {
    session = await openAgentSession(args, io, deps, { name, json, store, resumed });
    const controller = new AbortController();
    const unsubscribe = deps.onInterrupt?.(() => controller.abort());
    let end: Awaited<ReturnType<AgentSession['turn']>>;
    try {
      end = await session.turn(task, controller.signal);
    } finally {
      unsubscribe?.();
    }
    if (!json) {
      const { write, view } = session;
      if (view?.streaming === true) view.closeText();
      else if (end.text !== '') write(io.stdout, `${end.text}\n`);
      const usage = end.usage;
      const cache = usage.cacheReadTokens > 0 ? ` · cache read ${usage.cacheReadTokens}` : '';
      const line = `── ${end.status}${end.limit === null ? '' : ` (${end.limit})`} · ${end.steps} step${end.steps === 1 ? '' : 's'} · ${usage.inputTokens} in / ${usage.outputTokens} out tokens${cache} · ${end.model.provider} ${end.model.model} · session ${session.id}`;
      write(io.stderr, `${line}\n`);
      if (end.reason !== null && end.status !== 'done')
        write(io.stderr, `skillhost: ${end.code === null ? '' : `${end.code}: `}${end.reason}\n`);
      if (end.status === 'interrupted' || end.status === 'limit')
        write(
          io.stderr,
          `Continue with: skillhost agent run ${name} --resume ${session.id} [TASK]\n`,
        );
    }
    return EXIT_CODES[end.status];
  } catch (error) {
    if (
      SkillhostError.isInstance(error) &&
      (error.code === 'PERMISSION_DENIED' ||
        error.code === 'PERMISSION_REQUIRED' ||
        error.code === 'CLI_AGENT_MODE_UNSAFE')
    ) {
      const text = `skillhost: error ${error.code}: ${error.message}\n`;
      if (session === undefined) io.stderr.write(text);
      else session.write(io.stderr, text);
      return 3;
    }
    if (SkillhostError.isInstance(error) && session !== undefined)
      throw new SkillhostError(error.code, session.redact(error.message), {
        diagnostics: error.diagnostics,
      });
    throw error;
  } finally {
    await session?.close();
  }
}
