import { estimateTokens } from '../format/tokens.js';
import { byRecency, type LedgerEntry, type SkillState } from './ledger.js';
import { SKILLS_STATE_HEADING } from './messages.js';
import type { CountTokens } from './meter.js';

/**
 * The skills-state block a compaction puts after its summary: the most recently used skills in
 * full within budgets (one longer than a skill's budget truncated at its head, saying so), every other
 * activated skill as a stub (name, source, description, summary, hash and the call that brings
 * it back), and a last line naming every skill not in full. Pure: a command-line agent's
 * `onSessionStart` hook can render it from a ledger too.
 */

/** At most this many tokens of one skill in full (default). */
export const SKILL_FULL_TOKENS = 5_000;
/** At most this many tokens of skills in full in all (default). */
export const SKILLS_FULL_TOKENS = 25_000;
/** What the line saying a skill was truncated costs, about. */
const TRUNCATION_LINE_TOKENS = 60;

export interface SkillsStateOptions {
  /** The activation text of a content hash, if known (a skill without one is a stub). */
  readonly text?: (hash: string) => string | undefined;
  /** Skills whose activation is in the messages after the block (they are not repeated). */
  readonly inTail?: ReadonlySet<string>;
  /** Most tokens of one skill in full (default 5,000). */
  readonly perSkill?: number;
  /** Most tokens of skills in full in all (default 25,000). */
  readonly allSkills?: number;
  readonly count?: CountTokens;
}

export interface SkillsState {
  /** The block, empty when no skill was activated. */
  readonly text: string;
  /** Each skill's state in the new context. */
  readonly states: ReadonlyMap<string, SkillState>;
  readonly kept: readonly string[];
  readonly truncated: readonly string[];
  readonly demoted: readonly string[];
}

/** The call that brings a skill back, as a stub shows it. */
export function reactivationCall(entry: Pick<LedgerEntry, 'name' | 'hash'>): string {
  return `skillhost_activate ${JSON.stringify(entry.hash === '' ? { name: entry.name } : { name: entry.name, hash: entry.hash })}`;
}

/** The head of a text within `tokens`, cut at a line break. */
function headOf(text: string, tokens: number, count: CountTokens): string {
  const total = count(text);
  let length = Math.floor((text.length * tokens) / Math.max(1, total));
  while (length > 0) {
    const lineEnd = text.lastIndexOf('\n', length);
    const head = text.slice(0, lineEnd > length / 2 ? lineEnd : length);
    if (count(head) <= tokens) return head;
    length = Math.floor(length * 0.9);
  }
  return '';
}

function stub(entry: LedgerEntry): string {
  return [
    `<skill_stub name="${entry.name}" source="${entry.source}"${entry.trusted ? '' : ' trust="untrusted"'}>`,
    `Description: ${entry.description}`,
    `Summary: ${entry.summary === '' ? '(none)' : entry.summary}`,
    entry.hash === '' ? 'sha256: (unknown)' : `sha256: ${entry.hash}`,
    `Bring it back before relying on it: ${reactivationCall(entry)}`,
    '</skill_stub>',
  ].join('\n');
}

function truncated(entry: LedgerEntry, head: string, shown: number, total: number): string {
  const closing = head.includes('<skill_content') ? '\n</skill_content>' : '';
  return `${head}\n[skill ${entry.name} truncated here: the first ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} tokens are shown; ${reactivationCall(entry)} gives all of it]${closing}`;
}

/**
 * Renders the skills state of the ledger's entries: most recently used first, in full while
 * the budgets last, then stubs.
 *
 * @example renderSkillsState(ledger.entries(), { text: (hash) => ledger.text(hash) }).text
 */
export function renderSkillsState(
  entries: readonly LedgerEntry[],
  options: SkillsStateOptions = {},
): SkillsState {
  const count = options.count ?? estimateTokens;
  const perSkill = options.perSkill ?? SKILL_FULL_TOKENS;
  let left = options.allSkills ?? SKILLS_FULL_TOKENS;
  const states = new Map<string, SkillState>();
  const kept: string[] = [];
  const cut: string[] = [];
  const demoted: string[] = [];
  const blocks: string[] = [];
  let filling = true;
  for (const entry of [...entries].sort(byRecency)) {
    if (options.inTail?.has(entry.name) === true) {
      states.set(entry.name, 'full');
      kept.push(entry.name);
      blocks.push(
        `Skill ${entry.name}: in full in the recent messages below (sha256 ${entry.hash || 'unknown'}).`,
      );
      continue;
    }
    const text = filling && entry.hash !== '' ? options.text?.(entry.hash) : undefined;
    if (text !== undefined) {
      // The ledger counted the activation text already.
      const tokens = entry.tokens > 0 ? entry.tokens : count(text);
      const cost = Math.min(tokens, perSkill);
      if (cost <= left) {
        left -= cost;
        if (tokens <= perSkill) {
          states.set(entry.name, 'full');
          kept.push(entry.name);
          blocks.push(text);
        } else {
          const head = headOf(text, Math.max(1, perSkill - TRUNCATION_LINE_TOKENS), count);
          states.set(entry.name, 'truncated');
          cut.push(entry.name);
          blocks.push(truncated(entry, head, count(head), tokens));
        }
        continue;
      }
      // The most recently used skills are the ones in full: once one does not fit, the rest are stubs.
      filling = false;
    }
    states.set(entry.name, 'demoted');
    demoted.push(entry.name);
    blocks.push(stub(entry));
  }
  if (states.size === 0) return { text: '', states, kept, truncated: cut, demoted };
  const missing = [
    ...cut.map((name) => `${name} (truncated)`),
    ...demoted.map((name) => `${name} (demoted)`),
  ];
  const last =
    missing.length === 0
      ? 'Every skill activated in this conversation is here in full.'
      : `Not in full in this conversation: ${missing.join(', ')}. Call skillhost_activate as shown before relying on any of them.`;
  const text = [
    SKILLS_STATE_HEADING,
    "The instructions below are the skills' own text, as their files hold it; a skill shown as a stub is no longer in this conversation.",
    '',
    blocks.join('\n\n'),
    '',
    last,
  ].join('\n');
  return { text, states, kept, truncated: cut, demoted };
}
