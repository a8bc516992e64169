import { type ParsedArgs, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import type { CliDeps, CliIO } from '../io.js';
import { printable } from '../printable.js';
import { parseSession, readSession, sessionStore } from './session-log.js';

const OPTIONS = { json: { type: 'boolean' } } as const;

function list(args: ParsedArgs, io: CliIO, deps: CliDeps): number {
  const store = sessionStore(deps);
  const sessions = (store?.list() ?? []).map((file) => {
    let summary: {
      agent: string;
      provider: string;
      model: string;
      messages: number;
      runs: number;
      status: string | null;
    } = {
      agent: '?',
      provider: '?',
      model: '?',
      messages: 0,
      runs: 0,
      status: null,
    };
    try {
      const state = parseSession(file.id, store?.read(file.id) ?? '');
      const end = [...state.events].reverse().find((event) => event.type === 'end');
      summary = {
        agent: state.agent,
        provider: state.provider,
        model: state.model,
        messages: state.transcript.filter((message) => message.role !== 'compaction').length,
        runs: state.runs,
        status: typeof end?.status === 'string' ? end.status : null,
      };
    } catch {
      summary.status = 'unreadable';
    }
    return { id: file.id, modified: file.modified.toISOString(), size: file.size, ...summary };
  });
  if (args.options.json === true) {
    io.stdout.write(
      `${JSON.stringify({ directory: store?.directory ?? null, sessions }, null, 2)}\n`,
    );
    return 0;
  }
  if (sessions.length === 0) {
    io.stdout.write(
      `No sessions${store === undefined ? '' : ` in ${printable(store.directory)}`}\n`,
    );
    return 0;
  }
  for (const session of sessions)
    io.stdout.write(
      `${session.id}  ${session.modified.slice(0, 19).replace('T', ' ')}  ${printable(session.agent)}  ${session.provider} ${printable(session.model)}  ${session.status ?? 'running'}  ${session.messages} messages, ${session.runs} run${session.runs === 1 ? '' : 's'}\n`,
    );
  return 0;
}

function show(args: ParsedArgs, io: CliIO, deps: CliDeps, id: string): number {
  const store = sessionStore(deps);
  if (store === undefined) throw new UsageError('sessions are not kept here');
  const state = readSession(store, id);
  if (args.options.json === true) {
    io.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `session ${state.id}: agent ${printable(state.agent)}, ${state.provider} ${printable(state.model)}, created ${state.created}, ${state.runs} run${state.runs === 1 ? '' : 's'}`,
    `active skills: ${state.activeSkills.join(', ') || '(none)'}; grants for the session: ${state.grants.length}`,
  ];
  for (const message of state.transcript) {
    const content =
      typeof message.content === 'string'
        ? message.content
        : (message.content as Array<Record<string, unknown>>)
            .map((part) => {
              if (part.type === 'text' || part.type === 'reasoning') return String(part.text);
              if (part.type === 'tool-call')
                return `▸ ${String(part.toolName)} ${JSON.stringify(part.input)}`;
              if (part.type === 'tool-result') {
                const output = part.output as { type: string; value: unknown };
                const text =
                  typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
                return `◂ ${String(part.toolName)}${output.type === 'error-text' ? ' (error)' : ''}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
              }
              return `[${String(part.type)}]`;
            })
            .join('\n');
    lines.push(`── ${message.role}`, printable(content));
  }
  const end = [...state.events].reverse().find((event) => event.type === 'end');
  if (end !== undefined)
    lines.push(
      `── end: ${String(end.status)}${end.reason === null || end.reason === undefined ? '' : ` (${printable(String(end.reason))})`}`,
    );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, OPTIONS);
  const [action, id, ...extra] = args.positionals;
  if (action === 'list' && id === undefined) return list(args, io, deps);
  if (action === 'show' && id !== undefined && extra.length === 0) return show(args, io, deps, id);
  throw new UsageError('usage: skillhost sessions list | show ID [--json]');
}
