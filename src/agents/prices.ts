/**
 * What a model's tokens cost, for the cost a chat shows: US dollars per million tokens, as the
 * providers list them (Anthropic and OpenAI price pages, late 2025). Prices change and differ by
 * contract: the figure is an estimate, and a model missing here has no cost shown, never a guess.
 */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  /** Input read from the prompt cache. */
  readonly cacheRead: number;
  /** Input written to the prompt cache (Anthropic; OpenAI charges no write). */
  readonly cacheWrite: number;
}

const anthropic = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
});
const openai = (input: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input,
});

/** Prices by model id (a dated id, `claude-sonnet-4-5-20250929`, is priced as its model). */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'gpt-5': openai(1.25, 10),
  'gpt-5-mini': openai(0.25, 2),
  'gpt-5-nano': openai(0.05, 0.4),
  'gpt-5-pro': { input: 15, output: 120, cacheRead: 15, cacheWrite: 15 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0.4 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.15 },
};

/** Token counts as a run reports them; `inputTokens` includes the cached ones. */
export interface PricedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** The price of a model id, or undefined when the table does not know it. */
export function modelPrice(model: string): ModelPrice | undefined {
  if (Object.hasOwn(MODEL_PRICES, model)) return MODEL_PRICES[model];
  const undated = model.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
  return Object.hasOwn(MODEL_PRICES, undated) ? MODEL_PRICES[undated] : undefined;
}

/**
 * What the tokens cost in US dollars, or undefined for a model without a known price.
 *
 * @example modelCost('claude-sonnet-4-5', { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }) // 3
 */
export function modelCost(model: string, usage: PricedUsage): number | undefined {
  const price = modelPrice(model);
  if (price === undefined) return undefined;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * price.input +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite +
      usage.outputTokens * price.output) /
    1_000_000
  );
}
