import { estimateTokens } from '../format/tokens.js';
import type { CatalogEntry, CatalogLevel } from './catalog.js';
import type { TokenCounter } from './tokens.js';

export type VisibleLevel = Exclude<CatalogLevel, 'hidden'>;

const STAGES: ReadonlyArray<readonly [VisibleLevel, CatalogLevel]> = [
  ['full', 'short'],
  ['short', 'name'],
  ['name', 'hidden'],
];

/** Untrusted and unpinned is cut first (0), trusted and pinned last (3). */
function tierOf(entry: CatalogEntry): number {
  return (entry.trusted ? 2 : 0) + (entry.pinned ? 1 : 0);
}

/** A plan: the level of each entry and its total cost under one way of counting. */
class Plan {
  readonly levels: CatalogLevel[];
  hidden = 0;
  total: number;

  constructor(
    levels: readonly CatalogLevel[],
    readonly cost: (index: number, level: VisibleLevel) => number,
    readonly fixed: number,
    readonly markerCost: number,
  ) {
    this.levels = [...levels];
    this.total = fixed;
    this.levels.forEach((level, index) => {
      if (level === 'hidden') this.hidden += 1;
      else this.total += cost(index, level);
    });
    if (this.hidden > 0) this.total += markerCost;
  }

  /** The total if entry `index` were at `level`. */
  totalWith(index: number, level: CatalogLevel): number {
    const current = this.levels[index] as CatalogLevel;
    let hidden = this.hidden;
    let total = this.total;
    if (current === 'hidden') hidden -= 1;
    else total -= this.cost(index, current);
    if (level === 'hidden') hidden += 1;
    else total += this.cost(index, level);
    const markerBefore = this.hidden > 0 ? this.markerCost : 0;
    const markerAfter = hidden > 0 ? this.markerCost : 0;
    return total - markerBefore + markerAfter;
  }

  set(index: number, level: CatalogLevel): void {
    this.total = this.totalWith(index, level);
    if (this.levels[index] === 'hidden') this.hidden -= 1;
    if (level === 'hidden') this.hidden += 1;
    this.levels[index] = level;
  }
}

/** The orders cutting and filling go in, made once per catalog. */
interface Orders {
  /** Per tier (cut first: 0), its entries least useful first. */
  readonly cut: ReadonlyArray<readonly number[]>;
  /** Every entry, most useful first. */
  readonly fill: readonly number[];
  readonly tiers: readonly number[];
}

function ordersOf(entries: readonly CatalogEntry[]): Orders {
  const fill = entries
    .map((_, index) => index)
    .sort((a, b) => (entries[a] as CatalogEntry).rank - (entries[b] as CatalogEntry).rank);
  const tiers = entries.map(tierOf);
  const cut: number[][] = [[], [], [], []];
  for (let position = fill.length - 1; position >= 0; position -= 1) {
    const index = fill[position] as number;
    (cut[tiers[index] as number] as number[]).push(index);
  }
  return { cut, fill, tiers };
}

/**
 * Cuts until the plan fits `target`: tier by tier (untrusted, then unpinned), each tier all the
 * way (descriptions shortened, then dropped, then skills hidden), the least useful first.
 */
function cut(plan: Plan, orders: Orders, target: number): void {
  for (const group of orders.cut) {
    for (const [from, to] of STAGES) {
      for (const index of group) {
        if (plan.total <= target) return;
        if (plan.levels[index] === from) plan.set(index, to);
      }
    }
  }
}

/**
 * Gives the room left back, the most useful first: each entry is raised to the fullest level
 * that still fits. A skill is never shown while a skill of a tier cut after it stays hidden.
 * `worth` tells whether a raise is worth trying (with exact counting, the estimate rules out
 * raises that cannot fit before anything is counted); `patience` bounds the misses in a row.
 */
function fill(
  plan: Plan,
  orders: Orders,
  target: number,
  worth: (index: number, level: VisibleLevel, room: number) => boolean,
  patience: number,
): void {
  let lowestBlocked = -1;
  let misses = 0;
  for (const index of orders.fill) {
    if (misses >= patience || plan.total >= target) return;
    const current = plan.levels[index] as CatalogLevel;
    if (current === 'full') continue;
    const tier = orders.tiers[index] as number;
    if (current === 'hidden' && tier < lowestBlocked) continue;
    let raised = false;
    for (const level of ['full', 'short', 'name'] as const) {
      if (level === current) break;
      if (!worth(index, level, target - plan.total)) continue;
      if (plan.totalWith(index, level) <= target) {
        plan.set(index, level);
        raised = true;
        break;
      }
    }
    if (raised) misses = 0;
    else {
      misses += 1;
      if (current === 'hidden') lowestBlocked = Math.max(lowestBlocked, tier);
    }
  }
}

export interface PlanInput {
  readonly entries: readonly CatalogEntry[];
  readonly budget: number | undefined;
  readonly counter?: TokenCounter;
  /** An entry's text at a level, with what follows it in the catalog. */
  readonly entryText: (entry: CatalogEntry, level: VisibleLevel) => string;
  /** The catalog's own markup: counted when there is a counter, else estimated. */
  readonly fixed: number;
  readonly estimatedFixed: number;
  readonly markerText: (hidden: number) => string;
  readonly render: (levels: readonly CatalogLevel[]) => string;
  /** Without a counter, the share of the budget an estimate may take and still be trusted to fit. */
  readonly uncountedShare: number;
}

export interface PlanResult {
  readonly levels: readonly CatalogLevel[];
  readonly text: string;
  readonly tokens: number;
  readonly exact: boolean;
  readonly wantsExactCount: boolean;
  readonly fixedExact: number;
  /** Exact tokens per estimated token, over what was counted (1 when nothing was). */
  readonly rate: number;
}

/** Most re-plans when the count of the whole text differs from the sum of its entries. */
const MAX_RECOUNTS = 12;
/** Misses in a row after which filling stops (each miss may count one entry). */
const PATIENCE = 200;

/**
 * Plans how much of each entry the catalog shows under a budget: first on estimates (no entry
 * counted), then, with a counter, on exact counts of only the entries the cut and the fill
 * touch, and the text as a whole at the end. Without a budget, everything is in full.
 */
export function planCatalog(input: PlanInput): PlanResult {
  const { entries, budget, counter } = input;
  const all: CatalogLevel[] = entries.map(() => 'full');
  const estimate = (index: number, level: VisibleLevel) =>
    (entries[index] as CatalogEntry).estimate[level];
  const estimatedMarker = estimateTokens(input.markerText(entries.length));
  const estimated = new Plan(all, estimate, input.estimatedFixed, estimatedMarker);
  const orders = ordersOf(entries);
  if (budget === undefined || counter === undefined) {
    const doubtful = budget !== undefined && estimated.total > budget * input.uncountedShare;
    if (budget !== undefined && doubtful) {
      const target = Math.floor(budget * input.uncountedShare);
      cut(estimated, orders, target);
      fill(estimated, orders, target, () => true, entries.length);
    }
    const text = input.render(estimated.levels);
    if (counter !== undefined)
      return {
        levels: estimated.levels,
        text,
        tokens: counter(text),
        exact: true,
        wantsExactCount: false,
        fixedExact: input.fixed,
        rate: 1,
      };
    return {
      levels: estimated.levels,
      text,
      tokens: estimated.total,
      exact: false,
      wantsExactCount: doubtful,
      fixedExact: 0,
      rate: 1,
    };
  }
  // Everything fits by a wide margin on the estimate: one count of the text confirms it.
  if (estimated.total <= budget * input.uncountedShare) {
    const text = input.render(all);
    const tokens = counter(text);
    if (tokens <= budget)
      return {
        levels: all,
        text,
        tokens,
        exact: true,
        wantsExactCount: false,
        fixedExact: input.fixed,
        rate: estimated.total > 0 ? tokens / estimated.total : 1,
      };
  }
  // The whole text may take fewer or more tokens than its entries counted one by one (JSON's
  // "},{" is one piece of text): once the whole is counted, each entry's count is corrected by
  // the difference spread over the entries shown, and the plan is made again.
  let correction = 0;
  const exactCost = (index: number, level: VisibleLevel): number => {
    const entry = entries[index] as CatalogEntry;
    let tokens = entry.exact[level];
    if (tokens === undefined) {
      tokens = counter(input.entryText(entry, level));
      entry.exact[level] = tokens;
    }
    return tokens + correction;
  };
  const exactMarker = counter(input.markerText(entries.length));
  // On estimates first, against the budget scaled by how far the estimate of what it shows was
  // off; then exactly, cutting or filling from there.
  cut(estimated, orders, budget);
  fill(estimated, orders, budget, () => true, entries.length);
  let rate = 1;
  let plan = new Plan(estimated.levels, exactCost, input.fixed, exactMarker);
  if (estimated.total > 0) {
    rate = plan.total / estimated.total;
    if (Math.abs(rate - 1) > 0.02) {
      const again = new Plan(all, estimate, input.estimatedFixed, estimatedMarker);
      const target = Math.floor(budget / rate);
      cut(again, orders, target);
      fill(again, orders, target, () => true, entries.length);
      plan = new Plan(again.levels, exactCost, input.fixed, exactMarker);
    }
  }
  // A raise is tried only when its estimate, scaled and with slack for its error, could fit.
  const worth = (index: number, level: VisibleLevel, room: number) => {
    const current = plan.levels[index] as CatalogLevel;
    const step = estimate(index, level) - (current === 'hidden' ? 0 : estimate(index, current));
    return step * rate * 0.7 <= room;
  };
  let text = '';
  let tokens = 0;
  for (let attempt = 0; attempt < MAX_RECOUNTS; attempt += 1) {
    cut(plan, orders, budget);
    fill(plan, orders, budget, worth, PATIENCE);
    text = input.render(plan.levels);
    tokens = counter(text);
    const shown = plan.levels.length - plan.hidden;
    const off = tokens - plan.total;
    if (tokens <= budget && (off > -1 || budget - tokens <= budget * 0.005)) break;
    // Spread the difference over what is shown and plan again with the corrected counts.
    correction += off / Math.max(1, shown);
    plan = new Plan(plan.levels, exactCost, input.fixed, exactMarker);
  }
  // Still over after every attempt (a budget smaller than the marker): cut to the least.
  while (tokens > budget) {
    const before = plan.total;
    cut(plan, orders, plan.total - (tokens - budget));
    if (plan.total === before) break;
    text = input.render(plan.levels);
    tokens = counter(text);
  }
  return {
    levels: plan.levels,
    text,
    tokens,
    exact: true,
    wantsExactCount: false,
    fixedExact: input.fixed,
    rate,
  };
}
