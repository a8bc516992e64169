import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../src/agents/models.js';
import { MODEL_PRICES, modelCost, modelPrice } from '../../src/agents/prices.js';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
});

describe('model prices', () => {
  it('price every model an alias of the API providers names', () => {
    for (const provider of PROVIDERS.filter(
      (item) => item.name === 'anthropic' || item.name === 'openai',
    ))
      for (const model of [provider.defaultModel, ...Object.values(provider.aliases)])
        expect(modelPrice(model), model).toBeDefined();
  });

  it('count cached input at the cache prices, and know dated ids', () => {
    expect(modelCost('claude-sonnet-4-5', usage(1_000_000, 1_000_000))).toBeCloseTo(18);
    // 1M input of which 800k read from the cache and 100k written to it.
    expect(modelCost('claude-sonnet-4-5', usage(1_000_000, 0, 800_000, 100_000))).toBeCloseTo(
      0.1 * 3 + 0.8 * 0.3 + 0.1 * 3.75,
    );
    expect(modelCost('claude-sonnet-4-5-20250929', usage(1_000_000, 0))).toBeCloseTo(3);
    expect(modelCost('gpt-5-mini', usage(0, 1_000_000))).toBeCloseTo(2);
  });

  it('give no cost for a model they do not know, never a guess', () => {
    expect(modelCost('qwen2.5-coder:7b', usage(10, 10))).toBeUndefined();
    expect(modelPrice('gpt-5-turbo-2099')).toBeUndefined();
    expect(Object.keys(MODEL_PRICES).length).toBeGreaterThan(5);
  });
});
