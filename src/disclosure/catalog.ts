import { estimateTokens } from '../format/body.js';
import { escapeXmlText } from './available-skills.js';
import { sanitizeCatalogText, shorten } from './sanitize.js';
import type { TokenCounter } from './tokens.js';

export type CatalogFormat = 'xml' | 'markdown' | 'json';

/** What the catalog shows of one skill. */
export interface CatalogSkill {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the SKILL.md (shown only when `includeLocation`). */
  readonly location?: string;
  readonly trusted: boolean;
}

export interface CatalogOptions {
  readonly format?: CatalogFormat;
  /** Most tokens the catalog may take; without it, every skill is shown in full. */
  readonly budget?: number;
  /** An exact token counter; without it, a fast estimate is used. */
  readonly countTokens?: TokenCounter;
  /** The tool the model can call to find hidden skills (default `skillhost_search`). */
  readonly searchTool?: string;
  readonly includeLocation?: boolean;
  /** Length a description is cut to when the budget demands it (default 100 characters). */
  readonly shortLength?: number;
}

/** How much of a skill the catalog shows. */
export type CatalogLevel = 'full' | 'short' | 'name' | 'hidden';

export interface CatalogDecision {
  readonly name: string;
  readonly trusted: boolean;
  readonly level: CatalogLevel;
}

export interface CatalogResult {
  /** The catalog text; empty when there is no skill to offer. */
  readonly text: string;
  readonly format: CatalogFormat;
  /** Tokens of the text: exact when a counter was given, else estimated. */
  readonly tokens: number;
  readonly exact: boolean;
  /** Per skill, in display order: how much of it is shown. */
  readonly decisions: readonly CatalogDecision[];
  readonly counts: Readonly<Record<CatalogLevel, number>>;
  /** Lines saying what was cut and why. */
  readonly explain: readonly string[];
}

interface Prepared {
  readonly name: string;
  readonly description: string;
  /** The shortened description, made when first needed. */
  short: string | undefined;
  readonly location: string | undefined;
  readonly trusted: boolean;
  /** Estimated tokens at each level: from the text lengths, without rendering. */
  readonly cost: Record<Exclude<CatalogLevel, 'hidden'>, number>;
}

function shortOf(skill: Prepared, length: number): string {
  skill.short ??= shorten(skill.description, length);
  return skill.short;
}

/** Markup each format adds around one entry, in estimated tokens. */
const overhead: Record<CatalogFormat, number> = { xml: 12, markdown: 4, json: 8 };

function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (character) => `\\${character}`);
}

function renderEntry(
  format: CatalogFormat,
  skill: Prepared,
  level: Exclude<CatalogLevel, 'hidden'>,
  shortLength: number,
): string {
  const description =
    level === 'full'
      ? skill.description
      : level === 'short'
        ? shortOf(skill, shortLength)
        : undefined;
  if (format === 'xml') {
    const trust = skill.trusted ? '' : ' trust="untrusted"';
    const parts = [`<skill${trust}><name>${escapeXmlText(skill.name)}</name>`];
    if (description !== undefined)
      parts.push(`<description>${escapeXmlText(description)}</description>`);
    if (skill.location !== undefined)
      parts.push(`<location>${escapeXmlText(skill.location)}</location>`);
    parts.push('</skill>');
    return parts.join('');
  }
  if (format === 'markdown') {
    const trust = skill.trusted ? '' : ' (untrusted)';
    const text = description === undefined ? '' : `: ${markdownText(description)}`;
    const location = skill.location === undefined ? '' : ` (${markdownText(skill.location)})`;
    return `- **${markdownText(skill.name)}**${trust}${text}${location}`;
  }
  const entry: Record<string, unknown> = { name: skill.name };
  if (description !== undefined) entry.description = description;
  if (skill.location !== undefined) entry.location = skill.location;
  if (!skill.trusted) entry.trusted = false;
  return JSON.stringify(entry);
}

function marker(format: CatalogFormat, hidden: number, tool: string): string {
  const sentence = `${hidden} more skill${hidden === 1 ? ' is' : 's are'} not listed here; call the ${tool} tool to find them by topic.`;
  if (format === 'xml')
    return `<hidden_skills count="${hidden}">${escapeXmlText(sentence)}</hidden_skills>`;
  if (format === 'markdown') return `_${markdownText(sentence)}_`;
  return '';
}

function render(
  format: CatalogFormat,
  skills: readonly Prepared[],
  plan: readonly CatalogLevel[],
  tool: string,
  shortLength: number,
): string {
  const lines: string[] = [];
  let hidden = 0;
  for (let index = 0; index < skills.length; index += 1) {
    const level = plan[index] as CatalogLevel;
    if (level === 'hidden') hidden += 1;
    else lines.push(renderEntry(format, skills[index] as Prepared, level, shortLength));
  }
  if (format === 'json') {
    const hiddenPart =
      hidden > 0 ? `,"hidden":${hidden},"search_tool":${JSON.stringify(tool)}` : '';
    return `{"skills":[${lines.join(',')}]${hiddenPart}}`;
  }
  if (hidden > 0) lines.push(marker(format, hidden, tool));
  if (format === 'xml') return `<available_skills>\n${lines.join('\n')}\n</available_skills>`;
  return `## Available skills\n\n${lines.join('\n')}`;
}

/**
 * Plans how much of each skill fits `target` estimated tokens. Untrusted skills are cut first,
 * all the way (descriptions shortened, then dropped, then skills hidden), before any trusted
 * skill is touched; within a group the cut starts from the end of the list. The same input
 * always gives the same plan.
 */
function plan(
  skills: readonly Prepared[],
  fixedCost: number,
  markerCost: number,
  target: number,
): CatalogLevel[] {
  const levelsOf: CatalogLevel[] = skills.map(() => 'full');
  let total = fixedCost;
  for (const skill of skills) total += skill.cost.full;
  if (total <= target) return levelsOf;
  let hidden = 0;
  const fits = () => total + (hidden > 0 ? markerCost : 0) <= target;
  for (const trusted of [false, true]) {
    const group: number[] = [];
    for (let index = skills.length - 1; index >= 0; index -= 1)
      if (skills[index]?.trusted === trusted) group.push(index);
    for (const [from, to] of [
      ['full', 'short'],
      ['short', 'name'],
    ] as const) {
      for (const index of group) {
        if (fits()) return levelsOf;
        if (levelsOf[index] !== from) continue;
        const skill = skills[index] as Prepared;
        total += skill.cost[to] - skill.cost[from];
        levelsOf[index] = to;
      }
    }
    for (const index of group) {
      if (fits()) return levelsOf;
      const skill = skills[index] as Prepared;
      total -= skill.cost[levelsOf[index] as Exclude<CatalogLevel, 'hidden'>];
      levelsOf[index] = 'hidden';
      hidden += 1;
    }
  }
  return levelsOf;
}

/**
 * The L1 catalog: every usable skill's name and description, one line each, escaped for the
 * format, trusted skills first. With a token budget it degrades deterministically (shorter
 * descriptions, then names only, then hidden with a marker naming the search tool) and says why.
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
  const count = options.countTokens ?? estimateTokens;
  const emptyCounts = { full: 0, short: 0, name: 0, hidden: 0 };
  if (skills.length === 0) {
    return {
      text: '',
      format,
      tokens: 0,
      exact: options.countTokens !== undefined,
      decisions: [],
      counts: emptyCounts,
      explain: ['No usable skills: no catalog.'],
    };
  }
  const ordered = [...skills].sort(
    (a, b) =>
      Number(b.trusted) - Number(a.trusted) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const prepared: Prepared[] = ordered.map((skill) => {
    const name = sanitizeCatalogText(skill.name).text;
    const description = sanitizeCatalogText(skill.description).text;
    const location = options.includeLocation === true ? skill.location : undefined;
    const nameCost =
      estimateTokens(name) +
      overhead[format] +
      (location === undefined ? 0 : estimateTokens(location) + 4);
    const descriptionCost = estimateTokens(description);
    return {
      name,
      description,
      short: undefined,
      location,
      trusted: skill.trusted,
      cost: {
        full: nameCost + descriptionCost + 4,
        short: nameCost + Math.min(descriptionCost, Math.ceil(shortLength / 3)) + 4,
        name: nameCost,
      },
    };
  });
  const fixedCost = estimateTokens(render(format, [], [], tool, shortLength)) + 2;
  const markerCost = estimateTokens(marker(format, skills.length, tool)) + 1;
  const budget = options.budget;
  let target = budget ?? Number.POSITIVE_INFINITY;
  let levelsOf = plan(prepared, fixedCost, markerCost, target);
  let text = render(format, prepared, levelsOf, tool, shortLength);
  let tokens = count(text);
  if (budget !== undefined && options.countTokens !== undefined && tokens < budget * 0.9) {
    // The estimate was pessimistic for this text: plan once more against a calibrated target,
    // and keep the result only if it still fits.
    const estimated = estimateTokens(text);
    if (estimated > 0 && tokens > 0) {
      const calibrated = Math.floor((budget * estimated) / tokens) - 1;
      const roomier = plan(prepared, fixedCost, markerCost, calibrated);
      const roomierText = render(format, prepared, roomier, tool, shortLength);
      const roomierTokens = count(roomierText);
      if (roomierTokens <= budget) {
        levelsOf = roomier;
        text = roomierText;
        tokens = roomierTokens;
        target = calibrated;
      }
    }
  }
  // The plan uses estimates; when the exact count says it does not fit, plan again tighter.
  for (let attempt = 0; budget !== undefined && tokens > budget && attempt < 8; attempt += 1) {
    target = Math.floor(target * (budget / tokens) * 0.97) - 1;
    levelsOf = plan(prepared, fixedCost, markerCost, Math.max(0, target));
    text = render(format, prepared, levelsOf, tool, shortLength);
    tokens = count(text);
  }
  const counts = { ...emptyCounts };
  const decisions = prepared.map((skill, index) => {
    const level = levelsOf[index] as CatalogLevel;
    counts[level] += 1;
    return { name: skill.name, trusted: skill.trusted, level };
  });
  const explain: string[] = [];
  const fullCost = prepared.reduce((sum, skill) => sum + skill.cost.full, fixedCost);
  explain.push(
    budget === undefined
      ? `No budget: all ${skills.length} skills shown in full (${tokens} tokens${options.countTokens ? '' : ', estimated'}).`
      : `Budget ${budget} tokens; all ${skills.length} skills in full would take about ${fullCost} (estimated).`,
  );
  const many = (amount: number, one: string, more: string) =>
    `${amount} ${amount === 1 ? one : more}`;
  if (counts.short > 0) {
    explain.push(
      `${many(counts.short, 'description', 'descriptions')} shortened to ${shortLength} characters (untrusted skills are cut first, from the end of the list).`,
    );
  }
  if (counts.name > 0) {
    explain.push(
      `${many(counts.name, 'skill', 'skills')} shown by name only, without a description.`,
    );
  }
  if (counts.hidden > 0) {
    explain.push(
      `${many(counts.hidden, 'skill', 'skills')} hidden; the catalog says so and points to the ${tool} tool.`,
    );
  }
  if (budget !== undefined) {
    explain.push(
      `Result: ${tokens} tokens${options.countTokens ? ' (counted with the o200k tokenizer)' : ' (estimated)'}${tokens > budget ? `, over the budget: even the marker alone does not fit` : ''}.`,
    );
  }
  return {
    text,
    format,
    tokens,
    exact: options.countTokens !== undefined,
    decisions,
    counts,
    explain,
  };
}
