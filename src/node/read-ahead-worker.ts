import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ReadWithinOptions } from '../deps.js';
import { joinPath } from '../paths.js';
import { READ_OPEN_FLAGS } from './open-flags.js';
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
 * The common case of the safe read (`readFileWithin` in fs.ts), straight into a slot: the file
 * opened by its name without following a link, checked to be a regular file of known size, and
 * read up to that size and never past `maxBytes + 1`, as `readBounded` reads it. True when the
 * slot holds what the walk's own read would return; anything else (a link, which the walk may
 * follow inside the folder; no such file; not a regular file; a size of 0, as procfs reports;
 * more than a slot; too large without `allowPartial`; an error) is left to the walk. Nothing is
 * allocated and nothing copied: a helper that cost more per file than the walk's own read
 * would slow the walk it is meant to spare (measured: 4-5% of a 10,000-skill command).
 */
function readIntoSlot(
  path: string,
  options: ReadWithinOptions,
  slot: number,
  meta: Float64Array,
  data: Uint8Array,
): boolean {
  let fd: number;
  try {
    fd = openSync(path, READ_OPEN_FLAGS);
  } catch {
    return false;
  }
  try {
    const stats = fstatSync(fd);
    const cap = options.maxBytes + 1;
    const expected = Math.min(stats.size, cap);
    if (!stats.isFile() || expected <= 0 || expected > SLOT_BYTES) return false;
    const start = slot * SLOT_BYTES;
    let filled = 0;
    while (filled < expected) {
      const count = readSync(fd, data, start + filled, expected - filled, null);
      if (count === 0) break;
      filled += count;
    }
    const partial = filled > options.maxBytes;
    if (partial && options.allowPartial !== true) return false;
    const at = slot * META;
    meta[at] = stats.size;
    meta[at + 1] = stats.mtimeMs;
    meta[at + 2] = stats.ctimeMs;
    meta[at + 3] = stats.dev;
    meta[at + 4] = stats.ino;
    meta[at + 5] = stats.nlink;
    meta[at + 6] = partial ? options.maxBytes : filled;
    meta[at + 7] = partial ? 1 : 0;
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

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
  // A name below a folder of the skill may pass through links the walk follows inside it.
  if (fileName.includes('/')) return;
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
      const path = `${joinPath(directory, names[index] as string)}/${fileName}`;
      if (readIntoSlot(path, options, index % SLOTS, meta, data)) state = READY;
    } finally {
      // Anything else (a failed read, a larger file, an error here) is read by the walk again.
      Atomics.store(states, index, state);
      Atomics.notify(states, index);
      Atomics.add(control, SETTLED, 1);
    }
    index += 1;
  }
}
