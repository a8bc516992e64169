import type { ReadWithinOptions } from '../deps.js';
import { joinPath } from '../paths.js';
import { createNodeFileSystem } from './fs.js';
import {
  AGAIN,
  CLAIMED,
  CONTROL,
  FREE,
  layout,
  MAIN_AT,
  META,
  READY,
  SETTLED,
  SLOT_BYTES,
  SLOTS,
  STOP,
  WAKE_AT,
} from './read-ahead.js';

/** What a read-ahead helper is given (src/node/read-ahead.ts starts it). */
export interface ReadAheadWorkerData {
  readonly directory: string;
  readonly names: readonly string[];
  readonly fileName: string;
  readonly options: ReadWithinOptions;
  readonly shared: SharedArrayBuffer;
}

/** How long the helper sleeps at a time while every slot is full. */
const IDLE_MS = 20;

/**
 * The read-ahead helper's program: reads each name's file in order, a little ahead of the walk,
 * into the slot the walk will take it from, and skips what the walk has already read itself.
 */
export function runReadAhead({
  directory,
  names,
  fileName,
  options,
  shared,
}: ReadAheadWorkerData): void {
  const parts = layout(names.length);
  const control = new Int32Array(shared, 0, CONTROL);
  const states = new Int32Array(shared, parts.states, names.length);
  const meta = new Float64Array(shared, parts.meta, SLOTS * META);
  const data = new Uint8Array(shared, parts.data, SLOTS * SLOT_BYTES);
  const fs = createNodeFileSystem();
  let index = 0;
  while (index < names.length && Atomics.load(control, STOP) === 0) {
    const at = Atomics.load(control, MAIN_AT);
    // What the walk has reached it reads itself: start a little past it.
    if (index <= at) index = at + 2;
    if (index >= names.length) break;
    if (index - at >= SLOTS) {
      // Every slot holds a result the walk has not passed yet: wait until half of them are free.
      Atomics.store(control, WAKE_AT, index - (SLOTS >> 1));
      Atomics.wait(control, MAIN_AT, at, IDLE_MS);
      Atomics.store(control, WAKE_AT, -1);
      continue;
    }
    if (Atomics.compareExchange(states, index, FREE, CLAIMED) !== FREE) {
      index += 1;
      continue;
    }
    let state = AGAIN;
    try {
      const result = fs.readFileWithin(
        joinPath(directory, names[index] as string),
        fileName,
        options,
      );
      if (result.ok && result.bytes.length <= SLOT_BYTES) {
        const slot = index % SLOTS;
        const base = slot * META;
        const { status } = result;
        meta[base] = status.size;
        meta[base + 1] = status.mtimeMs;
        meta[base + 2] = status.ctimeMs;
        meta[base + 3] = status.device;
        meta[base + 4] = status.inode;
        meta[base + 5] = status.links;
        meta[base + 6] = result.bytes.length;
        meta[base + 7] = result.partial ? 1 : 0;
        data.set(result.bytes, slot * SLOT_BYTES);
        state = READY;
      }
    } finally {
      // Anything else (a failed read, a larger file, an error here) is read by the walk again.
      Atomics.store(states, index, state);
      Atomics.notify(states, index);
      Atomics.add(control, SETTLED, 1);
    }
    index += 1;
  }
}
