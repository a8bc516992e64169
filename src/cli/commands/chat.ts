import { type LoopEvent, type LoopUsage, modelCost } from '../../internal.js';
import { SkillhostError } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import type { CliDeps, CliIO } from '../io.js';
import { printable } from '../printable.js';
import {
  type AgentSession,
  openAgentSession,
  resumeState,
  SESSION_OPTIONS,
  type SessionTurnEnd,
} from './agent-session.js';

/**
 * `skillhost chat NAME`: the agent loop, turn after turn, at a terminal. Each line typed is a
 * turn (text streamed, one line per tool call, approvals asked inline, a footer with tokens,
 * cost and cache hits); a line starting with / is a chat command from `CHAT_COMMANDS`, or
 * `/SKILL TASK` to activate a skill for the task. Ctrl-C interrupts a turn; a second Ctrl-C (or
 * one at the prompt) leaves. The session is kept like agent run's, and resumes with --resume.
 */

/** What a chat command sees: the session, the terminal, and the chat's running totals. */
export interface ChatContext {
  readonly session: AgentSession;
  readonly io: CliIO;
  readonly deps: CliDeps;
  /** Cost of the session so far, in US dollars (undefined once a model without a price answered). */
  readonly cost: number | undefined;
  readonly turns: number;
}

/** A chat command: `/NAME [ARGUMENT]`. `exit` leaves the chat. */
export interface ChatCommand {
  /** One line for /help. */
  readonly summary: string;
  /** Its argument, for /help (e.g. `[ID]`). */
  readonly argument?: string;
  run(context: ChatContext, argument: string): Promise<'continue' | 'exit'> | 'continue' | 'exit';
}

const say = (context: ChatContext, text: string) =>
  context.session.write(context.io.stderr, `${text}\n`);

/**
 * The chat's commands, in the order /help lists them: the one place a command is added (a
 * command that manages the context, such as compaction, is one more entry here).
 */
export const CHAT_COMMANDS: Readonly<Record<string, ChatCommand>> = {
  help: {
    summary: 'list the commands',
    run: (context) => {
      for (const [name, command] of Object.entries(CHAT_COMMANDS))
        say(
          context,
          `  /${name}${command.argument === undefined ? '' : ` ${command.argument}`}  ${command.summary}`,
        );
      say(context, '  /SKILL TASK  activate a skill of the catalog for this task');
      say(context, '  Ctrl-C interrupts a turn; Ctrl-C twice (or at the prompt) leaves');
      return 'continue';
    },
  },
  skills: {
    summary: 'the skills: preloaded, active in this session, and the catalog',
    run: (context) => {
      const { agent } = context.session;
      const active = context.session.activeSkills();
      const list = (names: readonly string[]) =>
        names.length === 0 ? '(none)' : names.map((name) => printable(name)).join(', ');
      say(context, `  preloaded  ${list(agent.skills.map((skill) => skill.name))}`);
      say(context, `  active     ${list(active)}`);
      say(context, `  catalog    ${list(agent.catalogSkills)}`);
      return 'continue';
    },
  },
  model: {
    summary: 'show the model, or switch to another of the provider (alias or id)',
    argument: '[ID]',
    run: (context, argument) => {
      const { session } = context;
      if (argument !== '') {
        try {
          session.setModel(argument);
        } catch (error) {
          if (!SkillhostError.isInstance(error)) throw error;
          say(context, `  ${error.code}: ${printable(error.message)}`);
          return 'continue';
        }
      }
      const [model, fallback] = session.models;
      say(
        context,
        `  ${model?.provider} ${printable(model?.model ?? '')}${fallback === undefined ? '' : ` (fallback ${printable(fallback.model)})`}`,
      );
      return 'continue';
    },
  },
  compact: {
    summary:
      'compact the conversation now: a summary of the earlier turns, the skills as their files hold them, the recent turns as they were',
    run: async (context): Promise<'continue'> => {
      const outcome = await context.session.compact(new AbortController().signal);
      if (!outcome.changed) {
        say(
          context,
          outcome.failure === undefined
            ? '  Nothing to compact yet.'
            : `  ${outcome.failure.code}: the conversation could not be summarised: ${printable(outcome.failure.message)}`,
        );
        return 'continue';
      }
      const { event } = outcome;
      if (event.trigger === 'agent') {
        say(
          context,
          `  compacted by ${context.session.models[0]?.provider ?? 'the agent'}: about ${thousands(event.preTokens ?? 0)} → ${thousands(event.postTokens ?? 0)} tokens; the skills state goes back to it`,
        );
        return 'continue';
      }
      const names = (list: readonly string[] | undefined) =>
        list === undefined || list.length === 0
          ? '(none)'
          : list.map((name) => printable(name)).join(', ');
      say(
        context,
        `  compacted: about ${thousands(event.preTokens ?? 0)} → ${thousands(event.postTokens ?? 0)} tokens${event.summarized === true ? ', summary made' : ', old tool outputs pruned'}`,
      );
      say(
        context,
        `  skills in full ${names(event.kept)}; truncated ${names(event.truncated)}; stubs ${names(event.demoted)}`,
      );
      return 'continue';
    },
  },
  exit: { summary: 'leave (the session is kept: --resume ID continues it)', run: () => 'exit' },
};

function formatCost(cost: number): string {
  return cost >= 1 ? `$${cost.toFixed(2)}` : `$${cost.toFixed(4)}`;
}

const thousands = (value: number) => value.toLocaleString('en-US');

/** The footer after a turn: how it ended, tokens, cache hits, cost when known, the model. */
function footer(
  end: SessionTurnEnd,
  cost: number | undefined,
  total: number | undefined,
  turns: number,
): string {
  const usage: LoopUsage = end.usage;
  const parts = [
    `${end.status}${end.limit === null ? '' : ` (${end.limit})`}`,
    `${end.steps} step${end.steps === 1 ? '' : 's'}`,
    `${thousands(usage.inputTokens)} in / ${thousands(usage.outputTokens)} out tokens`,
    ...(usage.cacheReadTokens > 0 ? [`cache read ${thousands(usage.cacheReadTokens)}`] : []),
    ...(cost === undefined
      ? []
      : [
          `${formatCost(cost)}${turns > 1 && total !== undefined ? ` (session ${formatCost(total)})` : ''}`,
        ]),
    `${end.model.provider} ${end.model.model}`,
  ];
  return `── ${parts.join(' · ')}`;
}

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, SESSION_OPTIONS);
  const [name, ...extra] = args.positionals;
  if (name === undefined || extra.length > 0)
    throw new UsageError('usage: skillhost chat NAME [options]');
  if (args.options.json === true)
    throw new UsageError(
      'chat is interactive; for JSON events use skillhost agent run NAME TASK --json',
    );
  const input = io.stdin;
  if (input === undefined || input.isTTY !== true)
    throw new UsageError(
      'skillhost chat needs a terminal; without one, give a task to skillhost agent run NAME TASK',
    );
  const { store, resumed } = resumeState(args, deps, name);

  // Cost by the model of each step: a fallback may answer some of them.
  let stepModel = '';
  let turnCost: number | undefined = 0;
  const listen = (event: LoopEvent) => {
    if (event.type === 'step') stepModel = event.model;
    if (event.type === 'usage' && turnCost !== undefined) {
      const cost = modelCost(stepModel, event.usage);
      turnCost = cost === undefined ? undefined : turnCost + cost;
    }
  };
  const session = await openAgentSession(args, io, deps, {
    name,
    json: false,
    store,
    resumed,
    listen,
  });
  let code = 0;
  let stopListening: (() => void) | undefined;
  try {
    const [model] = session.models;
    session.write(
      io.stderr,
      `skillhost chat · ${printable(name)} · ${model?.provider} ${printable(model?.model ?? '')} · session ${session.id}${resumed === undefined ? '' : ` (resumed: ${resumed.messages.length} messages)`}\nType a task, or /help. Ctrl-C interrupts a turn; twice leaves.\n`,
    );
    let total: number | undefined = 0;
    let turns = 0;
    const context = (): ChatContext => ({ session, io, deps, cost: total, turns });
    // One Ctrl-C handler for the chat's life: at the prompt it leaves; in a turn the first
    // interrupts the turn and the next leaves once the turn has stopped.
    let leave = new AbortController();
    let turn: AbortController | undefined;
    let leaving = false;
    stopListening = deps.onInterrupt?.(
      () => {
        if (turn === undefined) leave.abort();
        else if (!turn.signal.aborted) {
          turn.abort();
          session.write(io.stderr, '\n^C interrupting the turn (Ctrl-C again leaves)\n');
        } else leaving = true;
      },
      { every: true },
    );
    while (true) {
      session.write(io.stderr, '\n› ');
      leave = new AbortController();
      const line = await input.readLine({ signal: leave.signal });
      if (leave.signal.aborted) {
        code = 130;
        session.write(io.stderr, '\n');
        break;
      }
      if (line === undefined) {
        session.write(io.stderr, '\n');
        break;
      }
      let text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        const [word = '', ...rest] = text.slice(1).split(/\s+/);
        const argument = rest.join(' ');
        const command = Object.hasOwn(CHAT_COMMANDS, word) ? CHAT_COMMANDS[word] : undefined;
        if (command !== undefined) {
          if ((await command.run(context(), argument)) === 'exit') break;
          continue;
        }
        // `/SKILL TASK`: the user activates a skill; its instructions lead the turn.
        const entry = session.runtime.offered().find((skill) => skill.name === word);
        if (entry === undefined || argument === '') {
          session.write(
            io.stderr,
            entry === undefined
              ? `Unknown command /${printable(word)}; /help lists them (/SKILL TASK activates a skill of the catalog)\n`
              : `Give the task after the skill: /${word} TASK\n`,
          );
          continue;
        }
        try {
          const activation = session.runtime.activate(word, { triggeredBy: 'user', resend: true });
          // The skill ledger keeps it, so that a compaction does not lose it.
          session.context.noteActivation({
            name: activation.name,
            address: activation.address,
            source: activation.source,
            trusted: activation.trust === 'trusted',
            description: entry.metadata?.description ?? '',
            hash: activation.contentHash ?? '',
            text: activation.text,
          });
          text = `${activation.text}\n\n${argument}`;
        } catch (error) {
          if (!SkillhostError.isInstance(error)) throw error;
          session.write(io.stderr, `${error.code}: ${printable(error.message)}\n`);
          continue;
        }
      }
      turn = new AbortController();
      turnCost = 0;
      let end: SessionTurnEnd;
      try {
        end = await session.turn(text, turn.signal);
      } finally {
        turn = undefined;
      }
      turns += 1;
      total = total === undefined || turnCost === undefined ? undefined : total + turnCost;
      session.view?.closeText();
      session.write(io.stderr, `${footer(end, turnCost, total, turns)}\n`);
      if (end.reason !== null && end.status !== 'done' && end.status !== 'interrupted')
        session.write(
          io.stderr,
          `skillhost: ${end.code === null ? '' : `${end.code}: `}${end.reason}\n`,
        );
      if (leaving || session.broker.quit) {
        code = 130;
        break;
      }
    }
    session.write(
      io.stderr,
      `Session ${session.id} kept: skillhost chat ${name} --resume ${session.id}\n`,
    );
    return code;
  } finally {
    stopListening?.();
    await session.close();
  }
}
