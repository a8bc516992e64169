import { countInvisible, removeInvisible } from './unicode.js';

/**
 * The words of a text as matching sees them (the router's BM25 and the keyword-stuffing check
 * share them): lower-case runs of Unicode letters and digits of two or more characters, without
 * common English stop words.
 */

const stopWords = new Set(
  'a an and are as at be by can do for from has have how i if in into is it its me my of on or our so that the their them then there these this to use used uses using was we what when where which who will with you your'.split(
    ' ',
  ),
);

// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII character, controls too
const asciiOnly = /^[\u0000-\u007f]*$/;

/** Lower-case word tokens (Unicode letters and digits), without stop words. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const lower = text.toLowerCase();
  if (asciiOnly.test(lower)) {
    // The same words without the Unicode expression: in ASCII, letters and digits are a-z, 0-9.
    let start = -1;
    for (let index = 0; index <= lower.length; index += 1) {
      const code = index < lower.length ? lower.charCodeAt(index) : 0;
      if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
        if (start === -1) start = index;
      } else if (start !== -1) {
        if (index - start > 1) {
          const token = lower.slice(start, index);
          if (!stopWords.has(token)) tokens.push(token);
        }
        start = -1;
      }
    }
    return tokens;
  }
  for (const match of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
    const token = match[0];
    if (token.length > 1 && !stopWords.has(token)) tokens.push(token);
  }
  return tokens;
}

/** Keyword stuffing: a term repeated at least this many times (see `findKeywordStuffing`)... */
export const STUFFING_MIN_REPEATS = 4;
/** ...that makes up at least this share of the description's terms. */
export const STUFFING_MIN_SHARE = 0.3;

/** The term a description repeats to game matching, how often, and out of how many terms. */
export interface KeywordStuffing {
  readonly term: string;
  readonly count: number;
  readonly terms: number;
}

/**
 * Finds keyword stuffing: some term occurs at least `STUFFING_MIN_REPEATS` (4) times and makes
 * up at least `STUFFING_MIN_SHARE` (30%) of the description's terms (invisible characters are
 * removed first, so they cannot split a word to hide its repeats). No description of the 3,595
 * real skills the conformance corpus loads reaches both: of those that repeat a term 4 times or
 * more, the highest share is 28% (5 times in 18 terms, 10 in 36).
 *
 * @example findKeywordStuffing('PDF tool. pdf pdf pdf pdf') // { term: 'pdf', count: 5, terms: 6 }
 */
export function findKeywordStuffing(description: string): KeywordStuffing | undefined {
  const terms = tokenize(
    countInvisible(description) > 0 ? removeInvisible(description) : description,
  );
  if (terms.length < STUFFING_MIN_REPEATS) return undefined;
  // A term with 30% of the terms has more than a quarter of them, so it is among the three
  // candidates of a Misra-Gries pass: no copy, no sort, no count of every term.
  let first: string | undefined;
  let second: string | undefined;
  let third: string | undefined;
  let firstCount = 0;
  let secondCount = 0;
  let thirdCount = 0;
  for (const term of terms) {
    if (term === first) firstCount += 1;
    else if (term === second) secondCount += 1;
    else if (term === third) thirdCount += 1;
    else if (firstCount === 0) {
      first = term;
      firstCount = 1;
    } else if (secondCount === 0) {
      second = term;
      secondCount = 1;
    } else if (thirdCount === 0) {
      third = term;
      thirdCount = 1;
    } else {
      firstCount -= 1;
      secondCount -= 1;
      thirdCount -= 1;
    }
  }
  firstCount = 0;
  secondCount = 0;
  thirdCount = 0;
  for (const term of terms) {
    if (term === first) firstCount += 1;
    else if (term === second) secondCount += 1;
    else if (term === third) thirdCount += 1;
  }
  const most = Math.max(firstCount, secondCount, thirdCount);
  if (most < STUFFING_MIN_REPEATS || most / terms.length < STUFFING_MIN_SHARE) return undefined;
  // The term that reaches the highest count first, as counting every term in order finds it.
  firstCount = 0;
  secondCount = 0;
  thirdCount = 0;
  for (const term of terms) {
    let count = 0;
    if (term === first) count = ++firstCount;
    else if (term === second) count = ++secondCount;
    else if (term === third) count = ++thirdCount;
    if (count === most) return { term, count, terms: terms.length };
  }
  return undefined;
}
