/**
 * Characters a skill's text may not smuggle past a person to a model or a terminal: control
 * characters (escape sequences can rewrite a terminal's screen or clipboard) and characters that
 * render as nothing or reorder what is shown (Unicode tag characters carry invisible ASCII that
 * models read; bidirectional controls make text read differently than it runs; zero-width
 * characters hide words). Emoji keep working: a variation selector right after a visible
 * character and a joiner between two visible characters are how emoji and some scripts are
 * written, so those are kept.
 */

/** What a scan found: how many such characters, and where the first one is (a UTF-16 offset). */
export interface CharacterFinding {
  readonly count: number;
  /** Offset of the first one, or -1 when there is none. */
  readonly first: number;
  /** The first one's code point, or -1. */
  readonly codePoint: number;
}

/** What cleaning removed, by kind. */
export interface CleanedText {
  readonly text: string;
  readonly control: CharacterFinding;
  readonly hidden: CharacterFinding;
}

const NONE: CharacterFinding = Object.freeze({ count: 0, first: -1, codePoint: -1 });

/**
 * A quick test for anything that needs a closer look: controls (not tab, line feed, carriage
 * return), the format characters below, and the tag and supplementary-selector planes.
 */
const suspect =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each character is matched on its own
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f\udd00-\uddef]/;

/** Is `code` a C0 or C1 control character other than tab, line feed and carriage return? */
export function isUnsafeControl(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
    (code >= 0x7f && code <= 0x9f)
  );
}

/** Bidirectional controls: embeddings, overrides, isolates and the marks. */
export function isBidiControl(code: number): boolean {
  return (
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Never needed in instructions: tags, bidi controls, zero-width space, invisible operators, fillers. */
function isAlwaysHidden(code: number): boolean {
  return (
    (code >= 0xe0000 && code <= 0xe007f) ||
    isBidiControl(code) ||
    code === 0x200b ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x206a && code <= 0x206f) ||
    code === 0xfeff ||
    code === 0x034f ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x3164 ||
    code === 0xffa0 ||
    code === 0x17b4 ||
    code === 0x17b5 ||
    (code >= 0x180b && code <= 0x180f) ||
    (code >= 0xfff9 && code <= 0xfffb)
  );
}

function isJoiner(code: number): boolean {
  return code === 0x200c || code === 0x200d || code === 0x00ad;
}

function isSelector(code: number): boolean {
  return (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);
}

const space = /\s/u;
const han = /\p{Script=Han}/u;
const mathOrMyanmar = /[\p{Sm}\p{Script=Myanmar}]/u;

/** A character a joiner or a selector may follow: visible, not space, not itself a format character. */
function isVisibleBase(code: number): boolean {
  return (
    code !== -1 &&
    !space.test(String.fromCodePoint(code)) &&
    !isUnsafeControl(code) &&
    !isAlwaysHidden(code) &&
    !isJoiner(code) &&
    !isSelector(code)
  );
}

function isCandidate(code: number): boolean {
  return isAlwaysHidden(code) || isJoiner(code) || isSelector(code);
}

/**
 * Whether a format character is hidden where it stands. `previous` is the code point kept just
 * before it (-1 at the start or after a removed character), `next` the one after it (-1 at the end).
 */
function hiddenInContext(code: number, previous: number, next: number): boolean {
  if (isAlwaysHidden(code)) return true;
  if (isJoiner(code)) {
    // Inside a word or an emoji sequence (a kept selector may sit before the joiner: 🏳️‍🌈).
    const before = isVisibleBase(previous) || isSelector(previous);
    return !(before && isVisibleBase(next));
  }
  if (code === 0xfe0e || code === 0xfe0f) return !isVisibleBase(previous);
  if (previous === -1) return true;
  const base = String.fromCodePoint(previous);
  if (code >= 0xfe00 && code <= 0xfe0d) return !(han.test(base) || mathOrMyanmar.test(base));
  return !han.test(base);
}

type Tally = { count: number; first: number; codePoint: number };

function tally(found: Tally, index: number, code: number): void {
  if (found.first === -1) {
    found.first = index;
    found.codePoint = code;
  }
  found.count += 1;
}

/**
 * Removes unsafe control characters and hidden characters from text, and says how many of each
 * and where the first was. Text without any is returned as it is, without a copy.
 */
export function cleanText(text: string): CleanedText {
  if (!suspect.test(text)) return { text, control: NONE, hidden: NONE };
  const control: Tally = { count: 0, first: -1, codePoint: -1 };
  const hidden: Tally = { count: 0, first: -1, codePoint: -1 };
  const parts: string[] = [];
  let previous = -1;
  let kept = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff ? 2 : 1;
    let removed = false;
    if (isUnsafeControl(code)) {
      tally(control, index, code);
      removed = true;
    } else if (code >= 0xad && isCandidate(code)) {
      const next = index + width < text.length ? (text.codePointAt(index + width) as number) : -1;
      if (hiddenInContext(code, previous, next)) {
        tally(hidden, index, code);
        removed = true;
      }
    }
    if (removed) {
      parts.push(text.slice(kept, index));
      kept = index + width;
      previous = -1;
    } else previous = code;
    index += width;
  }
  if (kept === 0) return { text, control, hidden };
  parts.push(text.slice(kept));
  return { text: parts.join(''), control, hidden };
}

/** `U+202E`: how a code point is named in messages. */
export function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Text with every unsafe control and hidden character shown as `<U+XXXX>`: for names (files,
 * folders) that must stay recognisable rather than silently change.
 */
export function showHiddenCharacters(text: string): string {
  if (!suspect.test(text)) return text;
  let out = '';
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    out +=
      isUnsafeControl(code) || isAlwaysHidden(code) || isJoiner(code) || isSelector(code)
        ? `<${codePointName(code)}>`
        : character;
  }
  return out;
}
