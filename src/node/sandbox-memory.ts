import { accessSync, constants, readFileSync } from 'node:fs';
import type { MemoryLimitMethod } from '../deps.js';

/**
 * How a run's memory is limited, decided on the machine at run time. Every process of a run has
 * its data segment limited (prlimit --data): what it really allocates (heap, anonymous maps:
 * Node's array buffers, Python's objects), not the address space it reserves, which Node makes
 * far larger than what it uses. A cgroup v2 memory limit would cap the run as a whole; the probe
 * reads what this machine offers and says why it is not used, so `sandbox explain` can tell.
 */

/** Where the probe reads the facts (the tests point it at fixtures). */
export interface MemoryProbeFiles {
  readonly mountinfo: string;
  readonly cgroup: string;
}

const PROC: MemoryProbeFiles = {
  mountinfo: '/proc/self/mountinfo',
  cgroup: '/proc/self/cgroup',
};

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

interface Mount {
  readonly root: string;
  readonly point: string;
  readonly options: readonly string[];
  readonly type: string;
  readonly superOptions: readonly string[];
}

/** The mounts of /proc/self/mountinfo: root, mount point, options, type, super options. */
function mounts(text: string): Mount[] {
  const found: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const fields = left.split(' ');
    const [type, , superOptions] = right.split(' ');
    if (fields[3] === undefined || fields[4] === undefined || type === undefined) continue;
    found.push({
      root: fields[3],
      point: fields[4].replace(/\\040/g, ' '),
      options: (fields[5] ?? '').split(','),
      type,
      superOptions: (superOptions ?? '').split(','),
    });
  }
  return found;
}

/**
 * Reads the machine: a cgroup v2 hierarchy, this process's cgroup in it, whether the memory
 * controller is offered there and whether the hierarchy can be written. The answer is always
 * the data-segment limit, with the reason a cgroup limit is not used.
 */
export function probeMemoryLimit(files: MemoryProbeFiles = PROC): MemoryLimitMethod {
  const dataSegment = (reason: string): MemoryLimitMethod => ({ method: 'data-segment', reason });
  const table = mounts(read(files.mountinfo) ?? '');
  const unified = table.find((mount) => mount.type === 'cgroup2');
  if (unified === undefined) return dataSegment('no cgroup v2 hierarchy is mounted here');
  const v1Memory = table.find(
    (mount) => mount.type === 'cgroup' && mount.superOptions.includes('memory'),
  );
  const own = (read(files.cgroup) ?? '')
    .split('\n')
    .find((line) => line.startsWith('0::'))
    ?.slice(3);
  if (own === undefined) return dataSegment('this process is in no cgroup v2 group');
  const relative =
    unified.root !== '/' && own.startsWith(unified.root) ? own.slice(unified.root.length) : own;
  const folder = `${unified.point}${relative === '/' ? '' : relative}`;
  const controllers = (read(`${folder}/cgroup.controllers`) ?? '').trim().split(/\s+/);
  if (!controllers.includes('memory')) {
    return dataSegment(
      v1Memory === undefined
        ? `the cgroup v2 group of this process (${folder}) is offered no memory controller`
        : `the memory controller is held by a cgroup v1 hierarchy (${v1Memory.point}), not cgroup v2`,
    );
  }
  if (unified.options.includes('ro'))
    return dataSegment(`the cgroup v2 hierarchy (${unified.point}) is mounted read-only`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return dataSegment(`this process may not make groups in its cgroup (${folder})`);
  }
  return dataSegment(
    `a cgroup v2 memory controller is offered to this process's group (${folder}), but a group that holds processes cannot give its sub-groups controllers, so using it would mean moving this process out of its own group: skillhost keeps to the per-process limit`,
  );
}
