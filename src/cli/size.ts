const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
/** Sizes past this are surely a mistake (and past what a tmpfs size can say). */
const MAX_SIZE = 1024 ** 4;

/**
 * Parses a size given on the command line: bytes, or a number with K, M or G (powers of 1024;
 * `KiB`, `MB` and the like are read the same way). Undefined when it is not one.
 *
 * @example parseSize('512M') // 536870912
 */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  if (match === null) return undefined;
  const bytes = Math.round(Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1));
  return Number.isSafeInteger(bytes) && bytes > 0 && bytes <= MAX_SIZE ? bytes : undefined;
}

/** A size in bytes for people: `512 MiB`, `1.5 GiB`, `300 bytes`. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
