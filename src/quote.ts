/** How many characters of a value a message quotes before cutting it. */
export const MAX_QUOTED_CHARACTERS = 80;

/** Control characters and line breaks escaped as JSON escapes them; quotes left as they are. */
function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"');
}

/**
 * A value as a message quotes it: in single quotes, control characters escaped, cut to `max`
 * code points with an ellipsis and the full length, so that no input, however long, makes a
 * message long.
 *
 * @example quote('a'.repeat(10_000)) // "'aaaa…' (10000 characters)"
 */
export function quote(value: string, max = MAX_QUOTED_CHARACTERS): string {
  const text = String(value);
  const points = text.length <= max ? undefined : [...text];
  if (points === undefined || points.length <= max) return `'${escaped(text)}'`;
  return `'${escaped(points.slice(0, max).join(''))}…' (${points.length} characters)`;
}
