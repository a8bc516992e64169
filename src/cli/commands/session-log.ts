import { type LoadedAgent, SkillhostError } from '../../node/index.js';
import { type ParsedArgs, positiveOption } from '../args.js';
import type { CliDeps, SessionFiles } from '../io.js';
import { skillhostHome } from '../registry-options.js';

/**
 * A session's log, one JSON object a line: `session` (the header: id, agent, provider, model,
 * created), `message` (each message of the history, in order), `event` (each event of the run,
 * as `--json` prints it, without the text deltas), `grant` (an approval given for the session),
 * `skills` (the skills active at the end of a run), `agent-session` (a command-line agent's own
 * session id, which --resume continues), `resume` (a later run of it), `ledger` (the
 * whole skill ledger, after each change: the last one is restored on resume), `compaction` (the
 * history a compaction made, which the next messages follow, after its `compaction` event),
 * `catalog` (what a run's model was shown of the skills, after its `session` or `resume` line:
 * see `SessionCatalog`).
 */
/** One skill of a recorded catalog: how much of it was shown, and why (`catalog --explain`). */
export interface SessionCatalogSkill {
  readonly name: string;
  readonly trusted: boolean;
  /** `full`, `short`, `name` or `hidden`. */
  readonly level: string;
  readonly rank: number;
  readonly tokens: number;
  readonly reason: string;
}

/** What a run's model was shown of the skills when the run started (a `catalog` line). */
export interface SessionCatalog {
  /** The run it was shown in: 1 for the first, then each resume. */
  readonly run: number;
  readonly time: string;
  readonly format: string;
  /** The catalog's token budget (`--catalog-budget`); null when it had none. */
  readonly budget: number | null;
  /** SHA-256 of the catalog's text, as the system prompt held it. */
  readonly hash: string;
  readonly tokens: number;
  readonly exact: boolean;
  /** The skills in the system prompt in full (the agent's preloaded ones): not in the catalog. */
  readonly preloaded: readonly string[];
  readonly skills: readonly SessionCatalogSkill[];
  /** The lines saying what was cut and why. */
  readonly explain: readonly string[];
}

/** `--catalog-budget N` (agent run, chat): the most tokens the agent's catalog may take. */
export function catalogBudget(args: ParsedArgs): { readonly catalogBudget?: number } {
  const budget = positiveOption(args.options['catalog-budget'], 'catalog-budget');
  return budget === undefined ? {} : { catalogBudget: budget };
}

/** The `catalog` line of a run: the agent's catalog as it was rendered for its system prompt. */
export function catalogRecord(
  agent: LoadedAgent,
  hash: CliDeps['hash'],
  time: string,
): Record<string, unknown> {
  const catalog = agent.catalogResult;
  return {
    type: 'catalog',
    time,
    format: catalog.format,
    budget: agent.catalogBudget ?? null,
    hash: hash(new TextEncoder().encode(catalog.text)),
    tokens: catalog.tokens,
    exact: catalog.exact,
    preloaded: agent.skills.map((skill) => skill.name),
    skills: catalog.decisions.map((decision) => ({
      name: decision.name,
      trusted: decision.trusted,
      level: decision.level,
      rank: decision.rank,
      tokens: decision.tokens,
      reason: decision.reason,
    })),
    explain: [...catalog.explain],
  };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const finite = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

function readCatalog(record: Record<string, unknown>, run: number): SessionCatalog {
  const skills = Array.isArray(record.skills) ? record.skills : [];
  return {
    run,
    time: String(record.time ?? ''),
    format: String(record.format ?? ''),
    budget: typeof record.budget === 'number' ? record.budget : null,
    hash: String(record.hash ?? ''),
    tokens: finite(record.tokens),
    exact: record.exact === true,
    preloaded: strings(record.preloaded),
    skills: skills
      .filter(
        (skill): skill is Record<string, unknown> =>
          typeof skill === 'object' && skill !== null && typeof skill.name === 'string',
      )
      .map((skill) => ({
        name: skill.name as string,
        trusted: skill.trusted === true,
        level: String(skill.level ?? ''),
        rank: finite(skill.rank),
        tokens: finite(skill.tokens),
        reason: String(skill.reason ?? ''),
      })),
    explain: strings(record.explain),
  };
}

export interface SessionState {
  readonly id: string;
  readonly agent: string;
  readonly provider: string;
  readonly model: string;
  readonly created: string;
  /** The history a resumed session goes on with: after the last compaction, its messages since. */
  // biome-ignore lint/suspicious/noExplicitAny: messages are the AI SDK's, kept as written.
  readonly messages: any[];
  /**
   * Every message as it came, never replaced, with an entry `{ role: 'compaction', content,
   * event }` where the context was compacted: the conversation to show.
   */
  // biome-ignore lint/suspicious/noExplicitAny: messages are the AI SDK's, kept as written.
  readonly transcript: any[];
  /** The last `ledger` record (the skill ledger to restore), if any. */
  readonly ledger: Record<string, unknown> | undefined;
  readonly compactions: number;
  readonly grants: string[];
  readonly activeSkills: string[];
  readonly events: Array<Record<string, unknown>>;
  readonly runs: number;
  /** A command-line agent's own session id (the last `agent-session` record): what --resume continues. */
  readonly agentSession: string | undefined;
  /** What each run's model was shown of the skills (none in logs written before it was kept). */
  readonly catalogs: SessionCatalog[];
}

/** The session folder, when this host keeps sessions. */
export function sessionStore(deps: CliDeps): SessionFiles | undefined {
  return deps.sessions?.(deps.resolvePath(skillhostHome(deps), 'sessions'));
}

export function parseSession(id: string, text: string): SessionState {
  const state: {
    -readonly [K in keyof SessionState]: SessionState[K];
  } = {
    id,
    agent: '',
    provider: '',
    model: '',
    created: '',
    messages: [],
    transcript: [],
    ledger: undefined,
    compactions: 0,
    grants: [],
    activeSkills: [],
    events: [],
    runs: 0,
    agentSession: undefined,
    catalogs: [],
  };
  let header = false;
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new SkillhostError('SESSION_INVALID', `Session ${id}: line ${index + 1} is not JSON`);
    }
    switch (record.type) {
      case 'session':
        header = true;
        state.agent = String(record.agent ?? '');
        state.provider = String(record.provider ?? '');
        state.model = String(record.model ?? '');
        state.created = String(record.created ?? '');
        state.runs += 1;
        break;
      case 'resume':
        state.runs += 1;
        break;
      case 'message':
        state.messages.push(record.message);
        state.transcript.push(record.message);
        break;
      case 'compaction': {
        if (!Array.isArray(record.messages))
          throw new SkillhostError(
            'SESSION_INVALID',
            `Session ${id}: line ${index + 1} is a compaction without its messages`,
          );
        state.messages = [...record.messages];
        state.compactions += 1;
        // Its event was logged just before it.
        const event = [...state.events].reverse().find((item) => item.type === 'compaction') ?? {};
        state.transcript.push({
          role: 'compaction',
          content: `context compacted (${String(event.trigger ?? 'unknown')}): about ${String(event.preTokens ?? '?')} → ${String(event.postTokens ?? '?')} tokens`,
          event,
        });
        break;
      }
      case 'ledger':
        state.ledger = record;
        break;
      case 'grant':
        if (typeof record.key === 'string' && !state.grants.includes(record.key))
          state.grants.push(record.key);
        break;
      case 'skills':
        state.activeSkills = Array.isArray(record.active)
          ? record.active.filter((name): name is string => typeof name === 'string')
          : [];
        break;
      case 'catalog':
        state.catalogs.push(readCatalog(record, state.runs));
        break;
      case 'agent-session':
        if (typeof record.id === 'string' && record.id !== '') state.agentSession = record.id;
        break;
      case 'event':
        state.events.push(record.event as Record<string, unknown>);
        break;
      default:
        break;
    }
  });
  if (!header)
    throw new SkillhostError(
      'SESSION_INVALID',
      `Session ${id} has no header line (type "session")`,
    );
  return state;
}

export function readSession(store: SessionFiles, id: string): SessionState {
  const text = store.read(id);
  if (text === undefined)
    throw new SkillhostError(
      'SESSION_NOT_FOUND',
      `No session ${JSON.stringify(id.slice(0, 200))} in ${store.directory}`,
    );
  return parseSession(id, text);
}
