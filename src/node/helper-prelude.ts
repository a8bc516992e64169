/**
 * The key under which a process records that it keeps V8's young generation from growing (the
 * command line does, for a short command over many files: `prepareCliProcess` in
 * src/cli/host/start.ts sets it with the same `Symbol.for` key).
 */
export const SMALL_YOUNG_GENERATION = Symbol.for('skillhost.smallYoungGeneration');

/**
 * The first statement of a helper thread's program. V8 sets the semi-space growth factor of the
 * whole process back to at least 2 whenever it makes a heap, a helper thread's included: the
 * young generation of the main thread would then grow to 32 MB. A helper re-applies the setting
 * its process made as soon as it runs; a process that made none is left as it is.
 */
export function helperPrelude(): string {
  return (globalThis as Record<symbol, unknown>)[SMALL_YOUNG_GENERATION] === true
    ? "require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');"
    : '';
}
