import { cleanText } from '../format/characters.js';

/**
 * The skill ledger: the harness's own record of every skill activated in a session, kept apart
 * from the conversation so that a compaction can never lose one. It is saved in the session log
 * (`record()`) after each change and restored from the last record on resume (`restore()`),
 * never re-derived from a summary.
 */

/** Where a skill stands in the context: its body in full, its head only, or a stub. */
export type SkillState = 'full' | 'truncated' | 'demoted';

/** Why a skill's state changed (the `skill-state` event's `reason`). */
export type SkillStateReason = 'activate' | 'reactivate' | 'compaction' | 'changed';

/** One activated skill, as the ledger keeps it. */
export interface LedgerEntry {
  readonly name: string;
  /** The copy activated (`name@source`). */
  readonly address: string;
  readonly source: string;
  readonly trusted: boolean;
  /** As the catalog shows it: one line, no hidden characters. */
  readonly description: string;
  /** SHA-256 of the SKILL.md activated (hex), or '' when the registry has no hasher. */
  readonly hash: string;
  /** Tokens of the activation text the model received. */
  readonly tokens: number;
  /** The session's step (model request) at which it was activated. */
  readonly activatedStep: number;
  /** The last step that used it: its activation, a read of its files or a run of its scripts. */
  readonly lastUsedStep: number;
  readonly state: SkillState;
  /** A short summary: by default its body's first heading and lines, made once per content hash. */
  readonly summary: string;
  /** Who wrote the summary: the harness from the body, or a model (an option). */
  readonly summaryBy: 'body' | 'model';
}

/** The ledger as the session log keeps it. */
export interface LedgerRecord {
  readonly v: 1;
  /** The session's step count so far. */
  readonly step: number;
  readonly skills: readonly LedgerEntry[];
}

/** What an activation tells the ledger: the skill, and the text the model received (the body wrapped with its directory and file listing). */
export type ActivationNote = Pick<
  LedgerEntry,
  'name' | 'address' | 'source' | 'trusted' | 'description' | 'hash' | 'tokens'
> & { readonly text: string };

/** A change of a skill's state, for the `skill-state` event. */
export interface SkillStateChange {
  readonly entry: LedgerEntry;
  readonly reason: SkillStateReason;
}

const SUMMARY_CHARACTERS = 300;

/** The body of an activation text: what lies between the wrapper's header and its file listing. */
function bodyOf(text: string): string {
  const start = text.indexOf(
    'Relative paths in these instructions are relative to that directory.',
  );
  let body = start < 0 ? text : text.slice(text.indexOf('\n', start) + 1);
  const listing = body.search(
    /\n(?:Files in the skill \(read them with the skillhost_read tool\):|The skill has no other files\.)\n/,
  );
  if (listing >= 0) body = body.slice(0, listing);
  return body;
}

/**
 * The default summary of a skill: its body's first heading and the first lines after it, at
 * most 300 characters, one line. Made without a model, from the text alone.
 *
 * @example skillSummary('# PDF tools\n\nFill forms and merge files.') // 'PDF tools: Fill forms and merge files.'
 */
export function skillSummary(text: string): string {
  const lines = bodyOf(text)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(?:```|---|<\/?skill_content)/.test(line));
  const headingIndex = lines.findIndex((line) => /^#{1,6}\s/.test(line));
  const heading = headingIndex < 0 ? '' : (lines[headingIndex] as string).replace(/^#+\s*/, '');
  const rest = (headingIndex < 0 ? lines : lines.slice(headingIndex + 1))
    .filter((line) => !/^#{1,6}\s/.test(line))
    .map((line) => line.replace(/^[-*+]\s+|^\d+\.\s+/, ''));
  let summary = heading;
  for (const line of rest) {
    if (summary.length >= SUMMARY_CHARACTERS) break;
    summary = summary === '' ? line : `${summary}${summary === heading ? ': ' : ' '}${line}`;
  }
  const one = cleanText(summary.replace(/\s+/g, ' ')).text.trim();
  return one.length <= SUMMARY_CHARACTERS ? one : `${one.slice(0, SUMMARY_CHARACTERS - 1)}…`;
}

function isEntry(value: unknown): value is LedgerEntry {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.name === 'string' &&
    typeof entry.address === 'string' &&
    typeof entry.source === 'string' &&
    typeof entry.hash === 'string' &&
    typeof entry.tokens === 'number' &&
    typeof entry.activatedStep === 'number' &&
    typeof entry.lastUsedStep === 'number' &&
    (entry.state === 'full' || entry.state === 'truncated' || entry.state === 'demoted') &&
    typeof entry.summary === 'string'
  );
}

/** Orders entries most recently used first (then most recently activated, then by name). */
export function byRecency(a: LedgerEntry, b: LedgerEntry): number {
  return (
    b.lastUsedStep - a.lastUsedStep ||
    b.activatedStep - a.activatedStep ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}

/** The skills activated in one session: their entries, the texts seen, the step count. */
export class SkillLedger {
  readonly #entries = new Map<string, LedgerEntry>();
  /** Activation texts by content hash, as the model received them (never saved: the registry has them). */
  readonly #texts = new Map<string, string>();
  /** Summaries by content hash: each made once. */
  readonly #summaries = new Map<string, { text: string; by: 'body' | 'model' }>();
  #step = 0;
  #summariesMade = 0;

  /** A ledger as a session log's last `ledger` record has it; entries that do not read are left out. */
  static restore(record: unknown): SkillLedger {
    const ledger = new SkillLedger();
    if (record === null || typeof record !== 'object') return ledger;
    const { step, skills } = record as Record<string, unknown>;
    if (typeof step === 'number' && Number.isInteger(step) && step >= 0) ledger.#step = step;
    if (Array.isArray(skills)) {
      for (const entry of skills.filter(isEntry)) {
        const kept: LedgerEntry = {
          ...entry,
          trusted: entry.trusted === true,
          description: typeof entry.description === 'string' ? entry.description : '',
          summaryBy: entry.summaryBy === 'model' ? 'model' : 'body',
        };
        ledger.#entries.set(kept.name, kept);
        if (kept.hash !== '')
          ledger.#summaries.set(kept.hash, { text: kept.summary, by: kept.summaryBy });
      }
    }
    return ledger;
  }

  /** The session's step count: model requests made so far. */
  get step(): number {
    return this.#step;
  }

  /** Counts one more model request; returns its step number. */
  nextStep(): number {
    this.#step += 1;
    return this.#step;
  }

  /** How many default summaries were made (once per content hash). */
  get summariesMade(): number {
    return this.#summariesMade;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entries, most recently used first. */
  entries(): LedgerEntry[] {
    return [...this.#entries.values()].sort(byRecency);
  }

  get(name: string): LedgerEntry | undefined {
    return this.#entries.get(name);
  }

  /** The activation text seen for a content hash, if this session saw it. */
  text(hash: string): string | undefined {
    return this.#texts.get(hash);
  }

  /** Remembers the text a skill was activated with (on resume, from the registry: same hash only). */
  rememberText(name: string, hash: string, text: string): boolean {
    const entry = this.#entries.get(name);
    if (entry === undefined || entry.hash !== hash || hash === '') return false;
    this.#texts.set(hash, text);
    return true;
  }

  #summaryOf(hash: string, text: string): { text: string; by: 'body' | 'model' } {
    const known = hash === '' ? undefined : this.#summaries.get(hash);
    if (known !== undefined) return known;
    const made = { text: skillSummary(text), by: 'body' as const };
    this.#summariesMade += 1;
    if (hash !== '') this.#summaries.set(hash, made);
    return made;
  }

  /** Sets a model-written summary for a content hash (made once: the caller asks only when absent). */
  setModelSummary(hash: string, summary: string): void {
    const text = cleanText(summary.replace(/\s+/g, ' ')).text.trim().slice(0, 600);
    if (hash === '' || text === '') return;
    this.#summaries.set(hash, { text, by: 'model' });
    for (const [name, entry] of this.#entries)
      if (entry.hash === hash)
        this.#entries.set(name, { ...entry, summary: text, summaryBy: 'model' });
  }

  /**
   * An activation the model received: a new skill (`activate`), the same content again after it
   * left the context (`reactivate`), or another content than the ledger had (`changed`).
   */
  activated(note: ActivationNote, step: number): SkillStateChange {
    const known = this.#entries.get(note.name);
    const summary = this.#summaryOf(note.hash, note.text);
    if (note.hash !== '') this.#texts.set(note.hash, note.text);
    const entry: LedgerEntry = {
      name: note.name,
      address: note.address,
      source: note.source,
      trusted: note.trusted,
      description: note.description,
      hash: note.hash,
      tokens: note.tokens,
      activatedStep: known === undefined ? step : known.activatedStep,
      lastUsedStep: step,
      state: 'full',
      summary: summary.text,
      summaryBy: summary.by,
    };
    this.#entries.set(note.name, entry);
    const reason: SkillStateReason =
      known === undefined ? 'activate' : known.hash === note.hash ? 'reactivate' : 'changed';
    return { entry, reason };
  }

  /** A use of an activated skill (a read of its files, a script run, an activation deduplicated). */
  used(name: string, step: number): boolean {
    const entry = this.#entries.get(name);
    if (entry === undefined || entry.lastUsedStep >= step) return false;
    this.#entries.set(name, { ...entry, lastUsedStep: step });
    return true;
  }

  /** Sets each named skill's state after a compaction; returns the entries whose state changed. */
  setStates(states: ReadonlyMap<string, SkillState>): LedgerEntry[] {
    const changed: LedgerEntry[] = [];
    for (const [name, state] of states) {
      const entry = this.#entries.get(name);
      if (entry === undefined) continue;
      const next = { ...entry, state };
      this.#entries.set(name, next);
      if (entry.state !== state) changed.push(next);
    }
    return changed;
  }

  /** The ledger as the session log keeps it (entries by name, for a stable record). */
  record(): LedgerRecord {
    return {
      v: 1,
      step: this.#step,
      skills: [...this.#entries.values()].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      ),
    };
  }
}
