/**
 * Makes text safe to print on a terminal: control characters (escape sequences could rewrite
 * the screen) and bidirectional overrides (they could disguise text) are shown as \\u escapes.
 */
export function printable(text: string, keepTabs = false): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (character) =>
      keepTabs && character === '\t'
        ? character
        : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
