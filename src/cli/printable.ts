import type { CliIO, CliStream } from './io.js';

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Makes text safe to print on a terminal: control characters (escape sequences could rewrite
 * the screen) and bidirectional controls (they could disguise text) are shown as \\u escapes.
 * For one-line values: line breaks are escaped too (tabs with `keepTabs`).
 */
export function printable(text: string, keepTabs = false): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (character) => (keepTabs && character === '\t' ? character : escapeCharacter(character)),
  );
}

/**
 * What every write of the CLI goes through, whatever the command: control characters other
 * than tab, line feed and a carriage return that ends a line, and bidirectional controls, are
 * shown as \\u escapes; the only escape sequences that pass are the colours the CLI's own style
 * writes (bold, dim, red, green, yellow, cyan and their resets). Inside JSON strings a \\u
 * escape means the same character, so JSON output stays exact.
 */
const unsafe =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /(\u001b\[(?:1|2|22|31|32|33|36|39)m)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

/**
 * Every character `unsafe` can start a match with, in one class (a carriage return and an escape
 * included): one quick scan finds nearly all text clean, which `unsafe`'s alternatives scan at
 * half the speed.
 */
const suspect =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Text for a terminal: see `unsafe`; line breaks and tabs are kept. */
export function terminalText(text: string): string {
  if (!suspect.test(text)) return text;
  unsafe.lastIndex = 0;
  if (!unsafe.test(text)) return text;
  return text.replace(unsafe, (match, colour: string | undefined) =>
    colour === undefined ? escapeCharacter(match) : colour,
  );
}

function guardStream(stream: CliStream): CliStream {
  const once = stream.once;
  // Asked when read, not copied: a stream made when first used stays unmade until then.
  return {
    write: (text: string) => stream.write(terminalText(String(text))),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    ...(once === undefined
      ? {}
      : { once: (event: 'drain', listener: () => void) => once.call(stream, event, listener) }),
  };
}

/** The CLI's streams with every write made safe for a terminal (`terminalText`). */
export function guardOutput(io: CliIO): CliIO {
  return {
    ...io,
    stdout: guardStream(io.stdout),
    stderr: guardStream(io.stderr),
  };
}
