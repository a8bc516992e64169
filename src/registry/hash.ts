const FNV_OFFSET = 0x811c9dc5;

/**
 * FNV-1a over UTF-16 units as a 32-bit integer, continued from `hash` (a hash of what came
 * before): for naming cache entries and finding candidates to compare, never for security.
 */
export function fnv1aOf(text: string, hash = FNV_OFFSET): number {
  let next = hash;
  for (let index = 0; index < text.length; index += 1)
    next = Math.imul(next ^ text.charCodeAt(index), 0x01000193);
  return next;
}

/** `fnv1aOf(text)` as 8 hex digits. */
export function fnv1a(text: string): string {
  return (fnv1aOf(text) >>> 0).toString(16).padStart(8, '0');
}
