import { SkillhostError } from '../errors.js';
import { parseAllowedTools, type ToolGrant } from '../policy/allowed-tools.js';
import { analyseCommand } from '../policy/command-analysis.js';
import { coversRequest, coversScript } from '../policy/coverage.js';
import { canonicalTool } from '../policy/tools.js';
import { quote } from '../quote.js';
import type { ApprovalAnswer, ApprovalQuestion } from '../runtime/types.js';

/** One question the broker is asking: an id, the exact input's hash, and the question. */
export interface ApprovalRequest {
  readonly id: string;
  readonly inputHash: string;
  readonly question: ApprovalQuestion;
  /** One line: what would happen. */
  readonly summary: string;
  /** The tool call that led to it, when the loop said. */
  readonly toolCallId: string | null;
}

/** What the user (or the host for them) answers. */
export type ApprovalDecision =
  | { readonly decision: 'once' }
  | { readonly decision: 'session' }
  | { readonly decision: 'denied'; readonly reason?: string }
  | { readonly decision: 'quit' };

/** Who answers a request: a terminal prompt, a chat UI, an embedding host. Absent: nobody can. */
export type ApprovalAsker = (request: ApprovalRequest) => Promise<ApprovalDecision>;

export interface ApprovalBrokerOptions {
  /** SHA-256 of bytes, hex (the runtime's hasher). */
  readonly hash: (bytes: Uint8Array) => string;
  /** Asks someone; undefined means there is no one to ask (no terminal): every request is denied. */
  readonly ask?: ApprovalAsker;
  /** --yes: approve every request once. */
  readonly yes?: boolean;
  /** --allow entries in allowed-tools syntax: requests they cover are approved once. */
  readonly allow?: readonly string[];
  /** Grants "always for this session" given earlier (a resumed session's). */
  readonly sessionGrants?: readonly string[];
  /** Hears every request and decision (events). */
  readonly onRequest?: (request: ApprovalRequest) => void;
  readonly onDecision?: (
    request: ApprovalRequest,
    decision: ApprovalDecision,
    by: 'user' | 'flag' | 'session' | 'no-terminal',
  ) => void;
  /** Hears each new session grant (the session log keeps them). */
  readonly onSessionGrant?: (key: string) => void;
}

/** The note given when no one can be asked. */
export const NO_TERMINAL_NOTE =
  'No terminal to ask for approval: rerun with --yes to approve every call once, or --allow ENTRY (allowed-tools syntax, e.g. --allow "Bash(sh scripts/count_lines.sh:*)" or --allow run_skill_script) to approve the calls it covers';

/** A JSON text with sorted keys: the same input always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a session grant is bound to: the same thing again, whatever it is called with. */
export function sessionKey(question: ApprovalQuestion): string {
  const record = question as unknown as Record<string, unknown>;
  if (question.kind === 'script')
    return canonicalJson([
      'script',
      question.source,
      question.skill,
      question.contentHash,
      question.script,
    ]);
  if (question.kind === 'activation')
    return canonicalJson(['activation', question.source, question.skill, question.contentHash]);
  // A workspace tool: write and edit for the session, a shell command only as written; any
  // other question, its exact input.
  if (record.kind === 'tool') {
    const canonical = String(record.canonical ?? record.tool ?? '');
    const input = (record.input ?? {}) as Record<string, unknown>;
    if (canonical === 'write' || canonical === 'edit')
      return canonicalJson(['tool', record.workspace, canonical]);
    if (canonical === 'bash')
      return canonicalJson(['tool', record.workspace, 'bash', input.command]);
  }
  return canonicalJson(['exact', record]);
}

/** One line about a question. */
export function summarize(question: ApprovalQuestion): string {
  if (question.kind === 'script') {
    const args = question.args.map((argument) => JSON.stringify(argument)).join(' ');
    return `run ${question.script}${args === '' ? '' : ` ${args}`} (${question.interpreter}) of ${question.skill}${question.trusted ? '' : ' [untrusted]'}`;
  }
  if (question.kind === 'activation') return `activate the untrusted skill ${question.skill}`;
  const record = question as unknown as Record<string, unknown>;
  if (typeof record.summary === 'string') return record.summary;
  return `${String(record.kind)} ${String(record.tool ?? '')}`.trim();
}

function coveredBy(grants: readonly ToolGrant[], question: ApprovalQuestion): boolean {
  const record = question as unknown as Record<string, unknown>;
  return grants.some((grant) => {
    if (question.kind === 'script') {
      const path = question.script;
      return coversScript(grant, { path, interpreter: question.interpreter, args: question.args })
        .covered;
    }
    if (question.kind === 'activation') return grant.tools.includes('activate_skill');
    // A workspace tool's question names its tool and carries its exact input: a command is read
    // as bash reads it, a path matched against the entry's glob, as the policy does.
    const name = typeof record.canonical === 'string' ? record.canonical : record.tool;
    const tool = typeof name === 'string' ? canonicalTool(name) : undefined;
    if (tool === undefined) return false;
    const input = (record.input ?? {}) as Record<string, unknown>;
    const command = typeof input.command === 'string' ? input.command : undefined;
    const path = typeof input.path === 'string' ? input.path : undefined;
    return coversRequest(
      grant,
      tool,
      path === undefined ? {} : { path },
      command === undefined ? undefined : analyseCommand(command),
    ).covered;
  });
}

/**
 * The one place approvals are decided during an agent run. Its `confirm` is the runtime's
 * `confirm`: each question becomes a request with an id and the SHA-256 of its exact input; an
 * answer is accepted only for that id and that hash (`answer`). Flags (--yes, --allow) and
 * grants given "for this session" answer first; without anyone to ask, the request is denied
 * with a note naming --yes and --allow.
 */
export class ApprovalBroker {
  readonly #options: ApprovalBrokerOptions;
  readonly #allow: readonly ToolGrant[];
  readonly #session = new Set<string>();
  readonly #pending = new Map<
    string,
    { request: ApprovalRequest; resolve: (decision: ApprovalDecision) => void }
  >();
  #count = 0;
  #toolCallId: string | null = null;
  #notes: string[] = [];
  #quit = false;
  #deniedWithoutTerminal = false;

  constructor(options: ApprovalBrokerOptions) {
    this.#options = options;
    const parsed = parseAllowedTools((options.allow ?? []).join(' '));
    if (parsed.problems.length > 0) {
      const problem = parsed.problems[0];
      throw new SkillhostError(
        'APPROVAL_ENTRY_INVALID',
        `--allow ${quote(problem?.raw ?? '')}: ${problem?.message ?? 'not an allowed-tools entry'}`,
      );
    }
    this.#allow = parsed.grants;
    for (const key of options.sessionGrants ?? []) this.#session.add(key);
  }

  /** The loop says which tool call is running, so requests and notes are tied to it. */
  beginCall(toolCallId: string | null): void {
    this.#toolCallId = toolCallId;
    this.#notes = [];
  }

  /** Notes for the model about the current call's approvals (a denial's reason). */
  takeNotes(): string[] {
    const notes = this.#notes;
    this.#notes = [];
    return notes;
  }

  /** Whether the user chose to quit at a prompt. */
  get quit(): boolean {
    return this.#quit;
  }

  /** Whether a request was denied because no one could be asked. */
  get deniedWithoutTerminal(): boolean {
    return this.#deniedWithoutTerminal;
  }

  /** The grants given "for this session", as stored keys. */
  get sessionGrants(): readonly string[] {
    return [...this.#session];
  }

  /** The requests waiting for an answer. */
  pending(): ApprovalRequest[] {
    return [...this.#pending.values()].map((entry) => entry.request);
  }

  /**
   * Answers a waiting request. Refused (false) unless `id` is waiting and `inputHash` is the hash
   * of exactly the input it asked about.
   */
  answer(id: string, inputHash: string, decision: ApprovalDecision): boolean {
    const entry = this.#pending.get(id);
    if (entry === undefined || entry.request.inputHash !== inputHash) return false;
    this.#pending.delete(id);
    entry.resolve(decision);
    return true;
  }

  /** The runtime's `confirm`. */
  readonly confirm = async (question: ApprovalQuestion): Promise<ApprovalAnswer> => {
    this.#count += 1;
    const request: ApprovalRequest = {
      id: `approval-${this.#count}`,
      inputHash: this.#options.hash(new TextEncoder().encode(canonicalJson(question))),
      question,
      summary: summarize(question),
      toolCallId: this.#toolCallId,
    };
    this.#options.onRequest?.(request);
    const key = sessionKey(question);
    const decide = (
      decision: ApprovalDecision,
      by: 'user' | 'flag' | 'session' | 'no-terminal',
    ) => {
      this.#options.onDecision?.(request, decision, by);
      if (decision.decision === 'session' && !this.#session.has(key)) {
        this.#session.add(key);
        this.#options.onSessionGrant?.(key);
      }
      if (decision.decision === 'denied') {
        this.#notes.push(
          by === 'no-terminal'
            ? NO_TERMINAL_NOTE
            : `The user refused${decision.reason === undefined || decision.reason === '' ? '' : `: ${decision.reason}`}`,
        );
      }
      if (decision.decision === 'quit') this.#quit = true;
      return decision.decision === 'once' || decision.decision === 'session' ? 'yes' : 'no';
    };
    if (this.#quit) return decide({ decision: 'quit' }, 'user');
    if (this.#session.has(key)) return decide({ decision: 'once' }, 'session');
    if (this.#options.yes === true || coveredBy(this.#allow, question))
      return decide({ decision: 'once' }, 'flag');
    const ask = this.#options.ask;
    if (ask === undefined) {
      this.#deniedWithoutTerminal = true;
      return decide({ decision: 'denied', reason: NO_TERMINAL_NOTE }, 'no-terminal');
    }
    const answered = new Promise<ApprovalDecision>((resolve) => {
      this.#pending.set(request.id, { request, resolve });
    });
    // The asker answers through `answer`, bound to the id and hash; its own return value counts too.
    void ask(request).then(
      (decision) => this.answer(request.id, request.inputHash, decision),
      () =>
        this.answer(request.id, request.inputHash, {
          decision: 'denied',
          reason: 'the prompt failed',
        }),
    );
    return decide(await answered, 'user');
  };
}
