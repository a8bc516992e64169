/** "Did you mean": the candidates closest to a word a user typed, by edit distance. */
import { quote } from './quote.js';

/**
 * The optimal string alignment distance (insertions, deletions, substitutions and swaps of two
 * neighbours), or `limit + 1` as soon as it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous: number[] = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] as number) + 1);
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

export interface SuggestOptions {
  /** Most suggestions (default 3). */
  readonly limit?: number;
  /** Most edits a suggestion may be away (default: a third of the word, at least 1, at most 3). */
  readonly maxDistance?: number;
}

/**
 * The candidates closest to `word`: one differing only in case first (a body's `FORMS.md` for a
 * file `forms.md`), then by edit distance over the lower-case forms, then by name.
 *
 * @example suggest('activat', ['activate', 'audit']) // ['activate']
 */
export function suggest(
  word: string,
  candidates: Iterable<string>,
  options: SuggestOptions = {},
): string[] {
  const lower = word.toLowerCase();
  const maxDistance =
    options.maxDistance ?? Math.min(3, Math.max(1, Math.floor([...word].length / 3)));
  const scored: Array<{ readonly candidate: string; readonly distance: number }> = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate === word || seen.has(candidate)) continue;
    seen.add(candidate);
    const other = candidate.toLowerCase();
    // A case-only difference ranks before any edit.
    const distance = other === lower ? -1 : editDistance(lower, other, maxDistance);
    if (distance <= maxDistance) scored.push({ candidate, distance });
  }
  scored.sort(
    (a, b) =>
      a.distance - b.distance ||
      (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0),
  );
  return scored.slice(0, options.limit ?? 3).map((item) => item.candidate);
}

/**
 * A message with "Did you mean 'a' or 'b'?" after it, as its own sentence; the message alone
 * when there is nothing to suggest.
 *
 * @example withSuggestions("unknown command 'lst'", ['list']) // "unknown command 'lst'. Did you mean 'list'?"
 */
export function withSuggestions(message: string, suggestions: readonly string[]): string {
  if (suggestions.length === 0) return message;
  const quoted = suggestions.map((item) => quote(item));
  const last = quoted.pop() as string;
  const end = /[.?!]$/.test(message) ? '' : '.';
  return `${message}${end} Did you mean ${quoted.length === 0 ? last : `${quoted.join(', ')} or ${last}`}?`;
}
