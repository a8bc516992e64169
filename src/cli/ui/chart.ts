import { count, escapeHtml, type Html, trusted } from './html.js';

/** One model request: its number and the context's size as the loop counted it before sending. */
export interface ChartPoint {
  readonly step: number;
  readonly tokens: number;
}

/** A compaction before request `beforeStep`: the context's size before and after it. */
export interface ChartCompaction {
  readonly beforeStep: number;
  readonly preTokens: number | null;
  readonly postTokens: number | null;
}

const WIDTH = 900;
const HEIGHT = 260;
const LEFT = 64;
const RIGHT = 16;
const TOP = 16;
const BOTTOM = 34;

/**
 * The context chart: one point per model request (tokens in context before it was sent), the
 * model's window and the compaction threshold as lines, each compaction as a drop from its
 * "before" to its "after". Drawn here as SVG: no library, nothing fetched.
 */
export function contextChart(options: {
  readonly points: readonly ChartPoint[];
  readonly window: number | undefined;
  readonly threshold: number | undefined;
  readonly compactions: readonly ChartCompaction[];
}): Html {
  const { points, window, threshold, compactions } = options;
  if (points.length === 0)
    return trusted('<p class="dim" id="context-chart-empty">No model request yet.</p>');
  const highest = Math.max(
    1,
    window ?? 0,
    threshold ?? 0,
    ...points.map((point) => point.tokens),
    ...compactions.map((compaction) => compaction.preTokens ?? 0),
  );
  const top = highest * 1.05;
  const steps = points.length;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number) =>
    LEFT + (steps === 1 ? plotWidth / 2 : (index / (steps - 1)) * plotWidth);
  const y = (tokens: number) => TOP + plotHeight - (tokens / top) * plotHeight;
  const indexOf = new Map(points.map((point, index) => [point.step, index]));
  const parts: string[] = [
    `<svg id="context-chart" xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="context tokens per request">`,
    `<rect x="${LEFT}" y="${TOP}" width="${plotWidth}" height="${plotHeight}" fill="#fff" stroke="#d9dee6"></rect>`,
  ];
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const tokens = top * fraction;
    parts.push(
      `<text x="${LEFT - 6}" y="${y(tokens) + 4}" text-anchor="end">${count(tokens)}</text>`,
    );
  }
  const line = (tokens: number, label: string, colour: string, id: string) =>
    parts.push(
      `<line id="${id}" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(tokens).toFixed(1)}" y2="${y(tokens).toFixed(1)}" stroke="${colour}" stroke-dasharray="6 4"></line>`,
      `<text x="${WIDTH - RIGHT - 4}" y="${(y(tokens) - 4).toFixed(1)}" text-anchor="end" style="fill:${colour}">${escapeHtml(label)} ${count(tokens)}</text>`,
    );
  if (window !== undefined) line(window, 'window', '#cf222e', 'context-window');
  if (threshold !== undefined)
    line(threshold, 'compaction threshold', '#9a6700', 'context-threshold');
  compactions.forEach((compaction, number) => {
    const index = indexOf.get(compaction.beforeStep);
    if (index === undefined) return;
    const at = x(index) - (steps === 1 ? 0 : plotWidth / (steps - 1) / 2);
    const words =
      compaction.preTokens === null || compaction.postTokens === null
        ? `compaction ${number + 1}`
        : `compaction ${number + 1}: ${count(compaction.preTokens)} → ${count(compaction.postTokens)} tokens`;
    parts.push(
      `<g class="compaction"><title>${escapeHtml(words)}</title><line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${TOP}" y2="${TOP + plotHeight}" stroke="#8250df" stroke-dasharray="2 3"></line>`,
      `<text x="${at.toFixed(1)}" y="${TOP + plotHeight - 4}" text-anchor="middle" style="fill:#8250df">C${number + 1}</text>`,
    );
    if (compaction.preTokens !== null && compaction.postTokens !== null)
      parts.push(
        `<path d="M${at.toFixed(1)} ${y(compaction.preTokens).toFixed(1)} L${at.toFixed(1)} ${y(compaction.postTokens).toFixed(1)}" stroke="#8250df" stroke-width="4"></path>`,
      );
    parts.push('</g>');
  });
  parts.push(
    `<polyline fill="none" stroke="#0b5cad" stroke-width="2" points="${points.map((point, index) => `${x(index).toFixed(1)},${y(point.tokens).toFixed(1)}`).join(' ')}"></polyline>`,
  );
  points.forEach((point, index) => {
    parts.push(
      `<circle class="point" data-step="${point.step}" data-tokens="${point.tokens}" cx="${x(index).toFixed(1)}" cy="${y(point.tokens).toFixed(1)}" r="4" fill="#0b5cad"><title>request ${point.step}: ${count(point.tokens)} tokens</title></circle>`,
    );
    if (steps <= 30 || index % Math.ceil(steps / 30) === 0)
      parts.push(
        `<text x="${x(index).toFixed(1)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${point.step}</text>`,
      );
  });
  parts.push(
    `<text x="${LEFT + plotWidth / 2}" y="${HEIGHT - 4}" text-anchor="middle">model request</text>`,
    '</svg>',
  );
  return trusted(parts.join(''));
}
