/** Reading fields of the JSON an agent sends, without trusting its shape. */

export type Json = Record<string, unknown>;

/** The value as an object (not an array), or undefined. */
export function object(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** The objects of an array (anything else left out); empty for what is not an array. */
export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((item) => object(item) !== undefined) : [];
}

export function string(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number, or undefined. */
export function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
