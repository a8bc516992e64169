import type { MessagePort } from 'node:worker_threads';
import { type SharedTreeJob, walkShare } from '../checks.js';
import { createNodeFileSystem } from './fs.js';
import { CLAIMED, FAILED, SENT } from './walk-helper.js';
import { loadYaml } from './yaml.js';

/** What a tree's helper thread is given: the job, the shared counts, and where to send shares. */
export interface WalkWorkerData {
  readonly job: SharedTreeJob;
  /** [next share to claim, shares sent, failed] */
  readonly counts: SharedArrayBuffer;
  readonly port: MessagePort;
}

/**
 * The helper thread's program (src/node/walk-helper.ts starts it): claims shares of the root's
 * folders until none is left, walks and checks each, and sends it. A failure is told through
 * the counts, so that the waiting thread stops waiting at once.
 */
export function runWalkWorker({ job, counts, port }: WalkWorkerData): void {
  const slots = new Int32Array(counts);
  const total = Math.ceil(job.children.length / job.shareSize);
  try {
    const fs = createNodeFileSystem();
    for (let index = Atomics.add(slots, CLAIMED, 1); index < total; ) {
      port.postMessage(walkShare(fs, job, index, loadYaml));
      Atomics.add(slots, SENT, 1);
      Atomics.notify(slots, SENT);
      index = Atomics.add(slots, CLAIMED, 1);
    }
  } catch {
    Atomics.store(slots, FAILED, 1);
    Atomics.add(slots, SENT, 1);
    Atomics.notify(slots, SENT);
  } finally {
    port.close();
  }
}
