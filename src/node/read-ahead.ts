import type { Worker } from 'node:worker_threads';
import type { ReadResult, ReadWithinOptions } from '../deps.js';
import { startHelperThread } from './helper-thread.js';
import type { ReadAheadWorkerData } from './read-ahead-worker.js';
import { smallInteger } from './stat-many.js';

/**
 * Skill files read ahead on a second thread while this one parses and checks them. A walk over
 * ten thousand skill folders spends a third of its time opening, reading and closing files;
 * the helper does that, in the walk's order, into a shared buffer, and this thread takes each
 * result when the walk asks for it. The helper runs the common case of the same safe read (a
 * regular file opened by its name, no link followed, read within the same bound), so a result is
 * the one a read here would give; anything else (a link, a failed read, a file larger than a
 * slot) is read here again, as is any file it has not got to yet.
 *
 * A helper takes 60-100 ms and about 9 MB to start, on the other core: worth it from a few
 * thousand folders (`READ_AHEAD_FROM`).
 */
export const READ_AHEAD_FROM = 4000;
/** Results held at once: how far the helper may run ahead of the walk. */
export const SLOTS = 64;
/** Bytes of one result; a larger file is read again here (about 1% of real skill files). */
export const SLOT_BYTES = 32 * 1024;
/** How long the walk waits for a file the helper is reading before it reads the file itself. */
const WAIT_MS = 5000;

/** The slots of the control counts. */
export const MAIN_AT = 0;
export const STOP = 1;
/** The index the walk must reach for the waiting helper to be woken (-1: it is not waiting). */
export const WAKE_AT = 2;
/** How many names the helper has finished with (read, or left to the walk). */
export const SETTLED = 3;
export const CONTROL = 4;

/** The state of each name. */
export const FREE = 0;
export const CLAIMED = 1;
export const READY = 2;
export const AGAIN = 3;
export const TAKEN = 4;

/** The numbers of a result: size, mtimeMs, ctimeMs, device, inode, links, bytes, partial. */
export const META = 8;

/** Where each part of the shared buffer starts, for `names` names. */
export function layout(names: number): {
  readonly states: number;
  readonly meta: number;
  readonly data: number;
  readonly total: number;
} {
  const states = CONTROL * 4;
  // Float64 values start on a multiple of 8.
  const meta = Math.ceil((states + names * 4) / 8) * 8;
  const data = meta + SLOTS * META * 8;
  return { states, meta, data, total: data + SLOTS * SLOT_BYTES };
}

/** A read ahead under way: `take` a file's result, `stop` it. */
export interface ReadAhead {
  /** The helper's result for this read, or undefined: read it here. */
  take(root: string, relativePath: string, options: ReadWithinOptions): ReadResult | undefined;
  stop(): void;
  /** How many names the helper has finished with so far. */
  settled(): number;
  /** How many results `take` has handed over from the helper. */
  readonly served: number;
}

/**
 * Starts reading `joinPath(directory, name)/fileName` for each of `names` on a helper thread;
 * undefined when no helper can start.
 */
export function startReadAhead(
  directory: string,
  names: readonly string[],
  fileName: string,
  options: ReadWithinOptions,
): ReadAhead | undefined {
  const parts = layout(names.length);
  const shared = new SharedArrayBuffer(parts.total);
  const control = new Int32Array(shared, 0, CONTROL);
  const states = new Int32Array(shared, parts.states, names.length);
  const meta = new Float64Array(shared, parts.meta, SLOTS * META);
  const data = new Uint8Array(shared, parts.data, SLOTS * SLOT_BYTES);
  control[MAIN_AT] = -1;
  control[WAKE_AT] = -1;
  let worker: Worker;
  try {
    const workerData: ReadAheadWorkerData = {
      directory,
      names,
      fileName,
      options: {
        maxBytes: options.maxBytes,
        ...(options.allowPartial === undefined ? {} : { allowPartial: options.allowPartial }),
      },
      shared,
    };
    worker = startHelperThread(
      { module: new URL('./read-ahead-worker.js', import.meta.url), run: 'runReadAhead' },
      // It keeps nothing: the smallest heap will do.
      { workerData, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } },
    );
    // A helper that fails claims nothing more: what it has not read is read here.
    worker.on('error', () => {});
  } catch {
    return undefined;
  }
  const prefix = directory.endsWith('/') ? directory : `${directory}/`;
  const copy = Buffer.allocUnsafeSlow(SLOT_BYTES);
  let next = 0;
  let served = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    Atomics.store(control, STOP, 1);
    Atomics.notify(control, MAIN_AT);
    void worker.terminate();
  };
  /** The index of `name` from `next` on (the walk passes over a few), or -1. */
  const find = (name: string): number => {
    const end = Math.min(names.length, next + SLOTS);
    for (let index = next; index < end; index += 1) if (names[index] === name) return index;
    return -1;
  };
  return {
    stop,
    settled: () => Atomics.load(control, SETTLED),
    get served() {
      return served;
    },
    take: (root, relativePath, asked) => {
      if (
        stopped ||
        relativePath !== fileName ||
        asked.maxBytes !== options.maxBytes ||
        asked.allowPartial !== options.allowPartial ||
        asked.knownKind !== undefined ||
        !root.startsWith(prefix)
      )
        return undefined;
      // A name holds no `/`: a deeper path is found nowhere.
      const index = find(root.slice(prefix.length));
      if (index === -1) return undefined;
      next = index + 1;
      // Everything before this one is done with: its slot may be written again. The helper,
      // when every slot is full, is woken once half of them are free (a wake is a system call).
      Atomics.store(control, MAIN_AT, index);
      const wake = Atomics.load(control, WAKE_AT);
      if (wake !== -1 && index >= wake) Atomics.notify(control, MAIN_AT);
      let state = Atomics.compareExchange(states, index, FREE, TAKEN);
      if (state === FREE) return undefined;
      if (state === CLAIMED) {
        Atomics.wait(states, index, CLAIMED, WAIT_MS);
        state = Atomics.load(states, index);
        if (state === CLAIMED) {
          // The helper is stuck: it reads nothing more.
          stop();
          return undefined;
        }
      }
      if (state !== READY) return undefined;
      const slot = index % SLOTS;
      const at = slot * META;
      const length = meta[at + 6] as number;
      const start = slot * SLOT_BYTES;
      copy.set(data.subarray(start, start + length));
      served += 1;
      return {
        ok: true,
        bytes: copy.subarray(0, length),
        status: {
          kind: 'file',
          size: smallInteger(meta[at] as number),
          mtimeMs: meta[at + 1] as number,
          ctimeMs: meta[at + 2] as number,
          device: smallInteger(meta[at + 3] as number),
          inode: smallInteger(meta[at + 4] as number),
          links: smallInteger(meta[at + 5] as number),
        },
        partial: meta[at + 7] === 1,
      };
    },
  };
}
