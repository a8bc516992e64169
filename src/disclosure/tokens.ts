/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

let loaded: Promise<TokenCounter> | undefined;

/**
 * A real tokenizer (o200k, from gpt-tokenizer), loaded on first use: about 160 ms, so callers
 * load it only when an exact count matters (a budget, a report) and use the estimate otherwise.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loaded ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (module) => (text: string) => module.countTokens(text),
  );
  return loaded;
}
