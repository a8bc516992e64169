import { type CatalogFormat, type CatalogLevel, readSkillUsage } from '../../node/index.js';
import { fitCatalog } from '../commands/catalog.js';
import { auditLogPath, configFile, openRegistry } from '../registry-options.js';
import type { UiContext } from './context.js';
import { count, type Html, html, page } from './html.js';
import type { PageResult } from './server.js';

const FORMATS: readonly CatalogFormat[] = ['xml', 'markdown', 'json'];

/** The budget field's largest value: more than any model's window. */
const MAX_BUDGET = 10_000_000;

export const LEVELS: Readonly<Record<CatalogLevel, string>> = {
  full: 'in full',
  short: 'shortened',
  name: 'name only',
  hidden: 'hidden',
};

/** One skill of a catalog as the tables show it: `CatalogDecision`, or a session's record of one. */
export interface DecisionRow {
  readonly rank: number;
  readonly name: string;
  readonly trusted: boolean;
  readonly level: string;
  readonly tokens: number;
  readonly reason: string;
}

/** A catalog's skills, each with its level, tokens drawn against `scale`, and why. */
export function decisionTable(
  id: string,
  decisions: readonly DecisionRow[],
  scale: number,
  share: string,
): Html {
  return html`<table id="${id}" class="decisions"><thead><tr><th>#</th><th>skill</th><th>shown</th><th class="num">tokens</th><th>share of the ${share}</th><th>why</th></tr></thead><tbody>
${decisions.map(
  (decision) =>
    html`<tr data-level="${decision.level}"><td class="num">${decision.rank}</td><td>${decision.name}${decision.trusted ? '' : html` <span class="tag untrusted">untrusted</span>`}</td><td><span class="tag ${decision.level}">${LEVELS[decision.level as CatalogLevel] ?? decision.level}</span></td><td class="num">${count(decision.tokens)}</td><td><svg class="bar" width="260" height="12" role="img" aria-label="${`${count(decision.tokens)} tokens`}"><rect width="260" height="12" fill="#eef1f5"></rect><rect width="${Math.min(260, (decision.tokens / Math.max(scale, 1)) * 260).toFixed(1)}" height="12" fill="#0b5cad"></rect></svg></td><td>${decision.reason}</td></tr>`,
)}
</tbody></table>`;
}

/**
 * What a model sees under a budget and a format (`skillhost catalog --explain`, drawn): the
 * catalog's text, the share of the budget each skill takes, and why each was shortened or hidden.
 */
export async function catalogPage(context: UiContext, query: URLSearchParams): Promise<PageResult> {
  const format = (query.get('format') ?? 'xml') as CatalogFormat;
  if (!FORMATS.includes(format))
    return { status: 400, message: `format must be xml, markdown or json, not ${format}` };
  const budgetText = (query.get('budget') ?? '').trim();
  const budget = budgetText === '' ? undefined : Number(budgetText);
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET))
    return { status: 400, message: `budget must be a whole number of tokens, not ${budgetText}` };
  const { registry } = openRegistry(context.args, context.deps);
  const skills = registry.active().map((entry) => ({
    name: entry.name,
    description: entry.metadata?.description ?? '',
    location: entry.skillFile,
    trusted: entry.source.trust === 'trusted',
  }));
  const pinned = context.deps.readConfig(configFile(context.deps)).pinnedSkills ?? [];
  const result = await fitCatalog(
    skills,
    {
      format,
      ...(budget === undefined ? {} : { budget }),
      ...(pinned.length === 0 ? {} : { pinned }),
    },
    () => readSkillUsage(auditLogPath(context.args, context.deps)),
  );
  const scale = Math.max(budget ?? result.tokens, 1);
  const body = html`<h1>Catalog</h1>
<form method="get" action="/catalog"><input type="hidden" name="token" value="${context.token}">
<label>budget (tokens) <input name="budget" inputmode="numeric" size="8" value="${budgetText}" placeholder="none"></label>
<label>format <select name="format">${FORMATS.map((name) => html`<option${name === format ? html` selected` : ''}>${name}</option>`)}</select></label>
<button type="submit">show</button></form>
<div class="summary"><div id="catalog-tokens">${count(result.tokens)} tokens${budget === undefined ? '' : html` of ${count(budget)}`} (${result.exact ? 'counted' : 'estimated'})</div><div>all in full: about ${count(result.fullTokens)}</div>${(['full', 'short', 'name', 'hidden'] as const).map((level) => html`<div><span class="tag ${level}">${LEVELS[level]}</span> ${result.counts[level]}</div>`)}</div>
${result.explain.map((line) => html`<div>${line}</div>`)}
<h2>Per skill</h2>
${decisionTable('catalog', result.decisions, scale, budget === undefined ? 'catalog' : 'budget')}
<h2>What the model sees</h2>
<pre id="catalog-text">${result.text === '' ? '(no usable skills: no catalog)' : result.text}</pre>`;
  return {
    status: 200,
    html: page({
      title: 'Catalog',
      section: 'catalog',
      token: context.token,
      home: context.deps.homeDir,
      body,
    }),
  };
}
