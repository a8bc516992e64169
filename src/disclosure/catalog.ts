import { estimateTokens } from '../format/tokens.js';
import { escapeXmlText } from './available-skills.js';
import {
  byUsefulness,
  describeRank,
  type SkillUsage,
  type UsageTable,
  usageOf,
} from './catalog-order.js';
import { planCatalog, type VisibleLevel } from './catalog-plan.js';
import { sanitizeCatalogText, shorten } from './sanitize.js';
import type { TokenCounter } from './tokens.js';

export type { SkillUsage, UsageTable } from './catalog-order.js';

export type CatalogFormat = 'xml' | 'markdown' | 'json';

/** What the catalog shows of one skill. */
export interface CatalogSkill {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the SKILL.md (shown only when `includeLocation`). */
  readonly location?: string;
  readonly trusted: boolean;
  /** Kept visible before the others of its trust (as `CatalogOptions.pinned` names it). */
  readonly pinned?: boolean;
}

export interface CatalogOptions {
  readonly format?: CatalogFormat;
  /** Most tokens the catalog may take; without it, every skill is shown in full. */
  readonly budget?: number;
  /**
   * An exact token counter (`loadTokenCounter()`). Without it the catalog is planned on
   * estimates; under a budget the estimate cannot prove fits, `wantsExactCount` says so.
   */
  readonly countTokens?: TokenCounter;
  /** The tool the model can call to find hidden skills (default `skillhost_search`). */
  readonly searchTool?: string;
  readonly includeLocation?: boolean;
  /** Length a description is cut to when the budget demands it (default 100 characters). */
  readonly shortLength?: number;
  /** Skills kept visible first after trust: pinned by the host, the agent or the user. */
  readonly pinned?: readonly string[];
  /** How much each skill was used, by name (e.g. from the audit log): more used stays visible. */
  readonly usage?: UsageTable;
}

/** How much of a skill the catalog shows. */
export type CatalogLevel = 'full' | 'short' | 'name' | 'hidden';

export interface CatalogDecision {
  readonly name: string;
  readonly trusted: boolean;
  readonly level: CatalogLevel;
  /** Its place in the order of what stays visible (1: kept longest). */
  readonly rank: number;
  /** Why it is shown as it is: its level and what ranked it (trust, pin, use). */
  readonly reason: string;
  /** Tokens its entry takes at its level (0 when hidden): counted where counted, else estimated. */
  readonly tokens: number;
}

export interface CatalogResult {
  /** The catalog text; empty when there is no skill to offer. */
  readonly text: string;
  readonly format: CatalogFormat;
  /** Tokens of the text: exact when a counter was given, else estimated. */
  readonly tokens: number;
  readonly exact: boolean;
  /** Tokens all skills in full would take: counted, or estimated (calibrated on what was counted). */
  readonly fullTokens: number;
  /**
   * True when a budget was given without a counter and the estimate could not show that the
   * catalog fits with room to spare: render again with `countTokens` for an exact fit.
   */
  readonly wantsExactCount: boolean;
  /** Per skill, in display order: how much of it is shown, and why. */
  readonly decisions: readonly CatalogDecision[];
  readonly counts: Readonly<Record<CatalogLevel, number>>;
  /** Lines saying what was cut and why. */
  readonly explain: readonly string[];
}

/**
 * Under a budget and without a counter, an estimate at most this share of the budget is taken
 * to fit: the estimate of a catalog is within about 6% of the exact count for 50 skills.
 */
const UNCOUNTED_SHARE = 0.9;

/** Tokens each format's markup adds to an entry beyond its name and text (fitted on real skills). */
const MARKUP: Record<CatalogFormat, { readonly described: number; readonly named: number }> = {
  xml: { described: 15, named: 10 },
  markdown: { described: 3, named: 3 },
  json: { described: 6, named: 4 },
};

/** A skill as the renderer and the planner see it. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  readonly location: string | undefined;
  readonly trusted: boolean;
  readonly pinned: boolean;
  readonly usage: SkillUsage | undefined;
  /** 0 for the most useful. */
  rank: number;
  short: string | undefined;
  readonly estimate: Record<VisibleLevel, number>;
  readonly exact: Partial<Record<VisibleLevel, number>>;
}

function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (character) => `\\${character}`);
}

function descriptionAt(entry: EntryText, level: VisibleLevel, shortLength: number) {
  if (level === 'name') return undefined;
  if (level === 'full') return entry.description;
  entry.short ??= shorten(entry.description, shortLength);
  return entry.short;
}

/** What the text of an entry is made from. */
type EntryText = Pick<CatalogEntry, 'name' | 'description' | 'location' | 'trusted' | 'short'>;

function renderEntry(
  format: CatalogFormat,
  entry: EntryText,
  level: VisibleLevel,
  shortLength: number,
): string {
  const description = descriptionAt(entry, level, shortLength);
  if (format === 'xml') {
    const trust = entry.trusted ? '' : ' trust="untrusted"';
    const parts = [`<skill${trust}><name>${escapeXmlText(entry.name)}</name>`];
    if (description !== undefined)
      parts.push(`<description>${escapeXmlText(description)}</description>`);
    if (entry.location !== undefined)
      parts.push(`<location>${escapeXmlText(entry.location)}</location>`);
    parts.push('</skill>');
    return parts.join('');
  }
  if (format === 'markdown') {
    const trust = entry.trusted ? '' : ' (untrusted)';
    const text = description === undefined ? '' : `: ${markdownText(description)}`;
    const location = entry.location === undefined ? '' : ` (${markdownText(entry.location)})`;
    return `- **${markdownText(entry.name)}**${trust}${text}${location}`;
  }
  const item: Record<string, unknown> = { name: entry.name };
  if (description !== undefined) item.description = description;
  if (entry.location !== undefined) item.location = entry.location;
  if (!entry.trusted) item.trusted = false;
  return JSON.stringify(item);
}

/** What an entry is followed by in the text (a line break, or the comma of a JSON list). */
const SEPARATOR: Record<CatalogFormat, string> = { xml: '\n', markdown: '\n', json: ',' };

function marker(format: CatalogFormat, hidden: number, tool: string): string {
  const sentence = `${hidden} more skill${hidden === 1 ? ' is' : 's are'} not listed here; call the ${tool} tool to find them by topic.`;
  if (format === 'xml')
    return `<hidden_skills count="${hidden}">${escapeXmlText(sentence)}</hidden_skills>`;
  if (format === 'markdown') return `_${markdownText(sentence)}_`;
  return `"hidden":${hidden},"search_tool":${JSON.stringify(tool)}`;
}

/** What each format puts before the first entry and after the last. */
const FRAME: Record<CatalogFormat, { readonly open: string; readonly close: string }> = {
  xml: { open: '<available_skills>\n', close: '\n</available_skills>' },
  markdown: { open: '## Available skills\n\n', close: '' },
  json: { open: '{"skills":[', close: ']}' },
};

function render(
  format: CatalogFormat,
  entries: readonly CatalogEntry[],
  levels: readonly CatalogLevel[],
  tool: string,
  shortLength: number,
): string {
  const lines: string[] = [];
  let hidden = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const level = levels[index] as CatalogLevel;
    if (level === 'hidden') hidden += 1;
    else lines.push(renderEntry(format, entries[index] as CatalogEntry, level, shortLength));
  }
  if (format === 'json')
    return `{"skills":[${lines.join(',')}]${hidden > 0 ? `,${marker(format, hidden, tool)}` : ''}}`;
  if (hidden > 0) lines.push(marker(format, hidden, tool));
  const { open, close } = FRAME[format];
  return `${open}${lines.join('\n')}${close}`;
}

/** Display order: trusted first, then by name (stable, so a prompt cache keeps hitting). */
function displayOrder(aTrusted: boolean, aName: string, bTrusted: boolean, bName: string): number {
  return Number(bTrusted) - Number(aTrusted) || (aName < bName ? -1 : aName > bName ? 1 : 0);
}

function byDisplayOrder(a: EntryText, b: EntryText): number {
  return displayOrder(a.trusted, a.name, b.trusted, b.name);
}

/**
 * The catalog of every skill in full, as `renderCatalog` makes it without a budget, in pieces
 * of about 64 KiB as it is made: a catalog of many thousand skills is never one string in
 * memory. Nothing when there is no skill (the catalog is empty).
 */
export function* fullCatalogPieces(
  skills: Iterable<CatalogSkill>,
  options: Pick<CatalogOptions, 'format' | 'includeLocation'> = {},
): Generator<string, void, undefined> {
  const format = options.format ?? 'xml';
  // The skills may be made one at a time as they are taken (the CLI maps registry entries):
  // only what is shown is kept, in lists side by side rather than an object a skill.
  const names: string[] = [];
  const descriptions: string[] = [];
  const locations: Array<string | undefined> = [];
  const trusted: boolean[] = [];
  for (const skill of skills) {
    names.push(sanitizeCatalogText(skill.name).text);
    descriptions.push(sanitizeCatalogText(skill.description).text);
    if (options.includeLocation === true) locations.push(skill.location);
    trusted.push(skill.trusted);
  }
  if (names.length === 0) return;
  const order = Array.from({ length: names.length }, (_, place) => place);
  order.sort((a, b) =>
    displayOrder(
      trusted[a] as boolean,
      names[a] as string,
      trusted[b] as boolean,
      names[b] as string,
    ),
  );
  const separator = SEPARATOR[format];
  const { open, close } = FRAME[format];
  let chunk = open;
  for (let index = 0; index < order.length; index += 1) {
    const place = order[index] as number;
    if (index > 0) chunk += separator;
    const entry: EntryText = {
      name: names[place] as string,
      description: descriptions[place] as string,
      location: locations[place],
      trusted: trusted[place] as boolean,
      short: undefined,
    };
    chunk += renderEntry(format, entry, 'full', 100);
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}${close}`;
}

function prepare(
  skills: readonly CatalogSkill[],
  options: CatalogOptions,
  format: CatalogFormat,
  shortLength: number,
): CatalogEntry[] {
  const pinned = new Set(options.pinned ?? []);
  const untrustedCost = estimateTokens(
    format === 'xml'
      ? ' trust="untrusted"'
      : format === 'json'
        ? ',"trusted":false'
        : ' (untrusted)',
  );
  const entries = skills.map((skill): CatalogEntry => {
    const name = sanitizeCatalogText(skill.name).text;
    const description = sanitizeCatalogText(skill.description).text;
    const location = options.includeLocation === true ? skill.location : undefined;
    const base =
      estimateTokens(name) +
      (skill.trusted ? 0 : untrustedCost) +
      (location === undefined ? 0 : estimateTokens(location) + 5);
    const full = estimateTokens(description);
    // A shortened description keeps its first `shortLength` characters and an ellipsis.
    const short =
      description.length <= shortLength
        ? full
        : Math.ceil((full * shortLength) / description.length) + 1;
    return {
      name,
      description,
      location,
      trusted: skill.trusted,
      pinned: skill.pinned === true || pinned.has(skill.name),
      usage: usageOf(options.usage, skill.name),
      rank: 0,
      short: undefined,
      estimate: {
        full: base + full + MARKUP[format].described,
        short: base + short + MARKUP[format].described,
        name: base + MARKUP[format].named,
      },
      exact: {},
    };
  });
  entries.sort(byDisplayOrder);
  [...entries].sort(byUsefulness).forEach((entry, rank) => {
    entry.rank = rank;
  });
  return entries;
}

const LEVEL_WORDS: Record<CatalogLevel, string> = {
  full: 'shown in full',
  short: 'description shortened',
  name: 'name only',
  hidden: 'hidden',
};

/**
 * The L1 catalog: every usable skill's name and description, one line each, escaped for the
 * format, trusted skills first. Under a token budget it fills the budget as fully as the counter
 * allows: skills are cut in the order of `catalog-order` (untrusted first, then the unpinned,
 * the least used, then by name), their descriptions shortened, then dropped, then hidden behind
 * a marker naming the search tool; the room left is given back to the most useful. The counter
 * is needed only when the estimate cannot show that everything fits.
 *
 * @example renderCatalog(skills, { format: 'xml', budget: 8000, countTokens })
 */
export function renderCatalog(
  skills: readonly CatalogSkill[],
  options: CatalogOptions = {},
): CatalogResult {
  const format = options.format ?? 'xml';
  const tool = options.searchTool ?? 'skillhost_search';
  const shortLength = options.shortLength ?? 100;
  const counter = options.countTokens;
  const emptyCounts = { full: 0, short: 0, name: 0, hidden: 0 };
  if (skills.length === 0) {
    return {
      text: '',
      format,
      tokens: 0,
      exact: counter !== undefined,
      fullTokens: 0,
      wantsExactCount: false,
      decisions: [],
      counts: emptyCounts,
      explain: ['No usable skills: no catalog.'],
    };
  }
  const entries = prepare(skills, options, format, shortLength);
  const separator = SEPARATOR[format];
  const entryText = (entry: CatalogEntry, level: VisibleLevel) =>
    `${renderEntry(format, entry, level, shortLength)}${separator}`;
  const fixedText = render(format, [], [], tool, shortLength);
  const estimatedFixed = estimateTokens(fixedText);
  const estimatedFull = entries.reduce((sum, entry) => sum + entry.estimate.full, estimatedFixed);
  const budget = options.budget;
  const plan = planCatalog({
    entries,
    budget,
    ...(counter === undefined ? {} : { counter }),
    entryText,
    fixed: counter === undefined ? estimatedFixed : counter(fixedText),
    estimatedFixed,
    markerText: (hidden) => `${marker(format, hidden, tool)}${separator}`,
    render: (levels) => render(format, entries, levels, tool, shortLength),
    uncountedShare: UNCOUNTED_SHARE,
  });
  const counts = { ...emptyCounts };
  const decisions = entries.map((entry, index): CatalogDecision => {
    const level = plan.levels[index] as CatalogLevel;
    counts[level] += 1;
    const reason =
      level === 'full'
        ? LEVEL_WORDS.full
        : `${LEVEL_WORDS[level]}: ranked ${entry.rank + 1} of ${entries.length} (${describeRank(entry)}); the budget held the skills ranked above it`;
    const tokens = level === 'hidden' ? 0 : (entry.exact[level] ?? entry.estimate[level]);
    return {
      name: entry.name,
      trusted: entry.trusted,
      level,
      rank: entry.rank + 1,
      reason,
      tokens,
    };
  });
  // The full size: what was counted in full, and the estimate for the rest.
  let fullTokens = plan.exact ? plan.fixedExact : estimatedFixed;
  for (const entry of entries) fullTokens += entry.exact.full ?? entry.estimate.full;
  const explain = explainCatalog(
    { budget, skills: entries.length, counts, tool, shortLength },
    { tokens: plan.tokens, exact: plan.exact, fullTokens, estimatedFull },
    entries,
  );
  return {
    text: plan.text,
    format,
    tokens: plan.tokens,
    exact: plan.exact,
    fullTokens: budget === undefined && plan.exact ? plan.tokens : fullTokens,
    wantsExactCount: plan.wantsExactCount,
    decisions,
    counts,
    explain,
  };
}

function explainCatalog(
  setting: {
    readonly budget: number | undefined;
    readonly skills: number;
    readonly counts: Readonly<Record<CatalogLevel, number>>;
    readonly tool: string;
    readonly shortLength: number;
  },
  size: {
    readonly tokens: number;
    readonly exact: boolean;
    readonly fullTokens: number;
    readonly estimatedFull: number;
  },
  entries: readonly CatalogEntry[],
): string[] {
  const { budget, skills, counts } = setting;
  const how = size.exact ? 'counted with the o200k tokenizer' : 'estimated';
  if (budget === undefined)
    return [`No budget: all ${skills} skills shown in full (${size.tokens} tokens, ${how}).`];
  const explain = [
    `Budget ${budget} tokens; all ${skills} skills in full would take about ${size.fullTokens} (${size.exact ? 'counted where shown, estimated for the rest' : 'estimated'}).`,
  ];
  const cut = skills - counts.full;
  if (cut > 0) {
    const pinned = entries.filter((entry) => entry.pinned).length;
    const used = entries.filter((entry) => (entry.usage?.uses ?? 0) > 0).length;
    explain.push(
      `Kept visible first: trusted skills, then pinned ones (${pinned}), then the most and most recently used (${used} with recorded use), then by name.`,
    );
  }
  const many = (amount: number, one: string, more: string) =>
    `${amount} ${amount === 1 ? one : more}`;
  if (counts.short > 0)
    explain.push(
      `${many(counts.short, 'description', 'descriptions')} shortened to about ${setting.shortLength} characters.`,
    );
  if (counts.name > 0)
    explain.push(
      `${many(counts.name, 'skill', 'skills')} shown by name only, without a description.`,
    );
  if (counts.hidden > 0)
    explain.push(
      `${many(counts.hidden, 'skill', 'skills')} hidden; the catalog says so and points to the ${setting.tool} tool.`,
    );
  explain.push(
    `Result: ${size.tokens} tokens (${how}), ${Math.round((size.tokens / budget) * 1000) / 10}% of the budget${size.tokens > budget ? ': over it, since even the marker alone does not fit' : ''}.`,
  );
  return explain;
}
