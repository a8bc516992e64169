/** How many characters of a value a message quotes before cutting it. */
export const MAX_QUOTED_CHARACTERS = 80;

/**
 * A value as a message quotes it: JSON-quoted (so control characters and quotes are escaped),
 * cut to `max` code points with an ellipsis and the full length, so that no input, however long,
 * makes a message long.
 *
 * @example quote('a'.repeat(10_000)) // '"aaaa…" (10000 characters)'
 */
export function quote(value: string, max = MAX_QUOTED_CHARACTERS): string {
  const text = String(value);
  if (text.length <= max) return JSON.stringify(text);
  const points = [...text];
  if (points.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(`${points.slice(0, max).join('')}…`)} (${points.length} characters)`;
}
