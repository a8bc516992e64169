import { countInvisible, removeInvisible } from '../format/unicode.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const controlOrBreak = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Anything sanitising would change: controls, separators, doubled spaces, or a non-ASCII character to look at. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const needsWork = /[\u0000-\u001f\u007f-\uffff]| {2}|^ | $/;

export interface SanitizedText {
  readonly text: string;
  /** Hidden characters removed. */
  readonly hidden: number;
}

/** One line of visible text: hidden characters removed, line breaks and controls made spaces, runs of space collapsed. */
export function sanitizeCatalogText(text: string): SanitizedText {
  if (!needsWork.test(text)) return { text, hidden: 0 };
  const hidden = countInvisible(text);
  const visible = hidden > 0 ? removeInvisible(text) : text;
  const oneLine = visible.replace(controlOrBreak, ' ').replace(/ {2,}/g, ' ').trim();
  return { text: oneLine, hidden };
}

/** Cuts text to at most `length` characters at a word boundary, marking the cut with an ellipsis. */
export function shorten(text: string, length: number): string {
  // UTF-16 length is never less than the code-point count: a short text needs no counting.
  if (text.length <= length) return text;
  const characters = [...text];
  if (characters.length <= length) return text;
  const cut = characters.slice(0, Math.max(1, length - 1)).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
