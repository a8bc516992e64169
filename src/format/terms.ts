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
  if (asciiOnly.test(description)) return asciiKeywordStuffing(description);
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

/** Base of the numbers that stand for words of up to five letters and digits (see `shortWord`). */
const BASE = 37;
/** The longest stop word. */
const SHORT = 5;

/** The digit of a-z, A-Z or 0-9 in base `BASE` (never 0, so that "a" and "aa" differ). */
function shortDigit(code: number): number {
  return code <= 57 ? code - 47 : (code | 0x20) - 86;
}

/** The number a word of one to five a-z, 0-9 characters stands for, one to one. */
function shortWord(word: string): number {
  let value = 0;
  for (let index = 0; index < word.length; index += 1)
    value = value * BASE + shortDigit(word.charCodeAt(index));
  return value;
}

/**
 * The stop words by their numbers, in an open-addressed table of `STOP_SLOTS` (each slot holds
 * a number plus one; 0 is empty): a lookup is a multiply and a compare or two, where a `Set`
 * of numbers costs a call per word (every description is checked).
 */
const STOP_SLOTS = 128;
let stopTable: Int32Array | undefined;

function stopSlot(value: number): number {
  return Math.imul(value, 0x9e3779b1) >>> 25;
}

function stopWordTable(): Int32Array {
  const table = new Int32Array(STOP_SLOTS);
  for (const word of stopWords) {
    const value = shortWord(word);
    let slot = stopSlot(value);
    while (table[slot] !== 0) slot = (slot + 1) & (STOP_SLOTS - 1);
    table[slot] = value + 1;
  }
  return table;
}

/** Whether the word of two to five characters numbered `value` (by `shortWord`) is a stop word. */
function isShortStopWord(value: number): boolean {
  stopTable ??= stopWordTable();
  const table = stopTable;
  for (let slot = stopSlot(value); ; slot = (slot + 1) & (STOP_SLOTS - 1)) {
    const held = table[slot] as number;
    if (held === 0) return false;
    if (held === value + 1) return true;
  }
}

/** Whether two words of an ASCII text are the same, ignoring case. */
function sameWord(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let offset = 0; a + offset < aEnd; offset += 1) {
    if ((text.charCodeAt(a + offset) | 0x20) !== (text.charCodeAt(b + offset) | 0x20)) return false;
  }
  return true;
}

/**
 * The offsets and hashes of the words of the description being checked, reused from one to the
 * next (a word takes two characters and a separator: half the length bounds their number).
 */
let wordStarts = new Int32Array(256);
let wordEnds = new Int32Array(256);
let wordHashes = new Int32Array(256);
/**
 * Terms counted by their hash's slot while the words are found. Words that share a slot add to
 * one count, so the highest count is at least the top term's: when even it falls short of the
 * thresholds (nearly always), no term reaches them and the exact passes are not needed.
 */
const SLOTS = 256;
const slotCounts = new Int32Array(SLOTS);

/**
 * `findKeywordStuffing` of an ASCII description, on the words' offsets: the same terms as
 * `tokenize` and the same passes, without a string per word (every description is checked).
 */
function asciiKeywordStuffing(description: string): KeywordStuffing | undefined {
  const capacity = (description.length >> 1) + 1;
  if (wordStarts.length < capacity) {
    wordStarts = new Int32Array(capacity);
    wordEnds = new Int32Array(capacity);
    wordHashes = new Int32Array(capacity);
  }
  const starts = wordStarts;
  const ends = wordEnds;
  const hashes = wordHashes;
  slotCounts.fill(0);
  let highest = 0;
  let terms = 0;
  let start = -1;
  let hash = 0;
  // The word's number while it has at most five characters (see `shortWord`).
  let short = 0;
  for (let index = 0; index <= description.length; index += 1) {
    const code = index < description.length ? description.charCodeAt(index) : 0;
    // Setting the case bit folds A-Z onto a-z and nothing else onto them.
    const folded = code | 0x20;
    const wordCharacter = (code >= 48 && code <= 57) || (folded >= 97 && folded <= 122);
    if (wordCharacter) {
      if (start === -1) {
        start = index;
        hash = 0;
        short = 0;
      }
      hash = (Math.imul(hash, 31) + folded) | 0;
      if (index - start < SHORT) short = short * BASE + shortDigit(code);
    } else if (start !== -1) {
      const length = index - start;
      if (length > 1 && (length > SHORT || !isShortStopWord(short))) {
        starts[terms] = start;
        ends[terms] = index;
        hashes[terms] = hash;
        terms += 1;
        const slot = (hash ^ (hash >>> 8)) & (SLOTS - 1);
        const counted = (slotCounts[slot] as number) + 1;
        slotCounts[slot] = counted;
        if (counted > highest) highest = counted;
      }
      start = -1;
    }
  }
  if (
    terms < STUFFING_MIN_REPEATS ||
    highest < STUFFING_MIN_REPEATS ||
    highest / terms < STUFFING_MIN_SHARE
  )
    return undefined;
  const same = (term: number, candidate: number) =>
    candidate !== -1 &&
    hashes[term] === hashes[candidate] &&
    sameWord(
      description,
      starts[term] as number,
      ends[term] as number,
      starts[candidate] as number,
      ends[candidate] as number,
    );
  let first = -1;
  let second = -1;
  let third = -1;
  let firstCount = 0;
  let secondCount = 0;
  let thirdCount = 0;
  for (let term = 0; term < terms; term += 1) {
    if (same(term, first)) firstCount += 1;
    else if (same(term, second)) secondCount += 1;
    else if (same(term, third)) thirdCount += 1;
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
  for (let term = 0; term < terms; term += 1) {
    if (same(term, first)) firstCount += 1;
    else if (same(term, second)) secondCount += 1;
    else if (same(term, third)) thirdCount += 1;
  }
  const most = Math.max(firstCount, secondCount, thirdCount);
  if (most < STUFFING_MIN_REPEATS || most / terms < STUFFING_MIN_SHARE) return undefined;
  firstCount = 0;
  secondCount = 0;
  thirdCount = 0;
  for (let term = 0; term < terms; term += 1) {
    let count = 0;
    if (same(term, first)) count = ++firstCount;
    else if (same(term, second)) count = ++secondCount;
    else if (same(term, third)) count = ++thirdCount;
    if (count === most) {
      const text = description.slice(starts[term], ends[term]).toLowerCase();
      return { term: text, count, terms };
    }
  }
  return undefined;
}
