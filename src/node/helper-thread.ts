import type { Worker, WorkerOptions } from 'node:worker_threads';

/**
 * The key under which a process records that it keeps V8's young generation from growing (the
 * command line does, for a short command over many files: `prepareCliProcess` in
 * src/cli/host/start.ts sets it with the same `Symbol.for` key).
 */
export const SMALL_YOUNG_GENERATION = Symbol.for('skillhost.smallYoungGeneration');

/**
 * What a helper thread runs: source of its own, or the function `run` of a program module next
 * to the module that starts it (dist/node/, or dist/cli/chunks/ in the bundled command line),
 * imported and called with the thread's data.
 */
export type HelperProgram = string | { readonly module: URL; readonly run: string };

/**
 * Starts a helper thread, unreferenced (it never keeps the process alive) and with its errors
 * left to the caller's own checks. `worker_threads` is loaded here: a short command never pays
 * for it.
 *
 * Its first statement re-applies the young-generation setting its process made, if any: V8 sets
 * the semi-space growth factor of the whole process back to at least 2 whenever it makes a heap,
 * a helper thread's included, and the main thread's young generation would then grow to 32 MB.
 * A process that made no such setting is left as it is.
 */
export function startHelperThread(program: HelperProgram, options: WorkerOptions = {}): Worker {
  const prelude =
    (globalThis as Record<symbol, unknown>)[SMALL_YOUNG_GENERATION] === true
      ? "require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');"
      : '';
  const source =
    typeof program === 'string'
      ? program
      : `import(${JSON.stringify(program.module.href)}).then((m) => m.${program.run}(require('node:worker_threads').workerData));`;
  const threads = process.getBuiltinModule('node:worker_threads');
  const worker = new threads.Worker(prelude + source, { ...options, eval: true });
  worker.unref();
  return worker;
}
