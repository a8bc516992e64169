import type { Worker } from 'node:worker_threads';
import type { EntryKind, FileStatus } from '../deps.js';
import { startHelperThread } from './helper-thread.js';

/**
 * Status of many paths at once, on both cores: a helper thread takes half of a large batch
 * while this thread does the other half, and this thread waits for it synchronously. A refresh
 * of a big registry is mostly such a batch (one status per skill file). Small batches, or any
 * trouble with the helper, fall back to a plain loop.
 */
const FIELDS = 7;
const KINDS: readonly EntryKind[] = [
  'file',
  'directory',
  'symlink',
  'fifo',
  'socket',
  'device',
  'other',
];
const PARALLEL_FROM = 2000;
const WAIT_MS = 10_000;

const workerSource = `
const { parentPort } = require('node:worker_threads');
const { statSync, lstatSync } = require('node:fs');
const kinds = ['file', 'directory', 'symlink', 'fifo', 'socket', 'device', 'other'];
function kind(s) {
  if (s.isFile()) return 0; if (s.isDirectory()) return 1; if (s.isSymbolicLink()) return 2;
  if (s.isFIFO()) return 3; if (s.isSocket()) return 4; if (s.isCharacterDevice() || s.isBlockDevice()) return 5; return 6;
}
parentPort.on('message', ({ paths, follow, results, done }) => {
  const out = new Float64Array(results);
  for (let i = 0; i < paths.length; i++) {
    let s;
    try { s = follow ? statSync(paths[i], { throwIfNoEntry: false }) : lstatSync(paths[i], { throwIfNoEntry: false }); } catch { s = undefined; }
    const o = i * ${FIELDS};
    if (s === undefined) { out[o] = -1; continue; }
    out[o] = kind(s); out[o + 1] = s.size; out[o + 2] = s.mtimeMs; out[o + 3] = s.ctimeMs; out[o + 4] = s.dev; out[o + 5] = s.ino; out[o + 6] = s.nlink;
  }
  const flag = new Int32Array(done); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
});`;

/**
 * A whole number as V8's small integer where it fits. Node gives every number of a status as a
 * boxed double (even a size of 10); a field that once held one boxes every value stored in it,
 * and a registry keeps identities of every skill: 16 bytes a number saved.
 */
export function smallInteger(value: number): number {
  return value === (value | 0) ? value | 0 : value;
}

let helper: Worker | undefined;
let helperBroken = false;

function startHelper(): Worker | undefined {
  if (helper !== undefined || helperBroken) return helper;
  try {
    // Started on the first large batch: a short command never pays for it.
    helper = startHelperThread(workerSource);
    helper.on('error', () => {
      helperBroken = true;
      helper = undefined;
    });
  } catch {
    helperBroken = true;
    helper = undefined;
  }
  return helper;
}

export function statusMany(
  paths: readonly string[],
  follow: boolean,
  single: (path: string, follow: boolean) => FileStatus | undefined,
): Array<FileStatus | undefined> {
  const results: Array<FileStatus | undefined> = new Array(paths.length);
  const worker = paths.length >= PARALLEL_FROM ? startHelper() : undefined;
  if (worker === undefined) {
    for (let index = 0; index < paths.length; index += 1)
      results[index] = single(paths[index] as string, follow);
    return results;
  }
  const half = paths.length >> 1;
  const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * FIELDS * half);
  const done = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  worker.postMessage({ paths: paths.slice(0, half), follow, results: shared, done });
  for (let index = half; index < paths.length; index += 1)
    results[index] = single(paths[index] as string, follow);
  const finished = Atomics.wait(new Int32Array(done), 0, 0, WAIT_MS) !== 'timed-out';
  if (!finished) {
    helperBroken = true;
    for (let index = 0; index < half; index += 1)
      results[index] = single(paths[index] as string, follow);
    return results;
  }
  const out = new Float64Array(shared);
  for (let index = 0; index < half; index += 1) {
    const offset = index * FIELDS;
    const kind = out[offset] as number;
    results[index] =
      kind < 0
        ? undefined
        : {
            kind: KINDS[kind] ?? 'other',
            size: smallInteger(out[offset + 1] as number),
            mtimeMs: out[offset + 2] as number,
            ctimeMs: out[offset + 3] as number,
            device: smallInteger(out[offset + 4] as number),
            inode: smallInteger(out[offset + 5] as number),
            links: smallInteger(out[offset + 6] as number),
          };
  }
  return results;
}
