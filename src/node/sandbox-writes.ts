import {
  closeSync,
  constants,
  openSync,
  readdirSync,
  readFileSync,
  statfsSync,
  statSync,
} from 'node:fs';

/**
 * The write budget of a run (ScriptLimits.maxWriteBytes): everything a script writes to its
 * /tmp, /work, home and /dev/shm (each a tmpfs, that is memory) and to a writable workspace,
 * counted together.
 *
 * Each tmpfs is mounted with the whole budget (and a page) as its size, so the kernel refuses
 * any write past it on one of them. The sum is watched from outside: the tmpfs mounts through
 * descriptors opened on them while bubblewrap waits before starting the script (which also keep
 * them measurable after the sandbox is gone, for a last count when the script has ended), and
 * the workspace through the kernel's count of bytes each process of the run dirtied in the page
 * cache (`write_bytes` in /proc/PID/io: only disk-backed files count there, and the workspace is
 * the sandbox's only one; a process that ends adds its count to its parent's). Past the budget
 * the whole run is killed. A seccomp filter closes the ways around both counts: fallocate
 * (space without writes), memfd_create and System V shared memory (memory files outside any
 * tmpfs), io_uring (which would do the same behind the filter's back).
 */

const TMPFS_MAGIC = 0x01021994;
/** How often the sum is taken while the script runs. */
const WATCH_INTERVAL_MS = 20;
/** While the sandbox is being set up (the script waits), its mounts are looked for every ms. */
const SETUP_INTERVAL_MS = 1;
/** Past this, mounts that cannot be found are a failure: the budget could not be kept. */
const SETUP_TIMEOUT_MS = 10_000;
/** A run's processes are at most `maxProcesses`; this bounds a walk of /proc whatever happens. */
const MAX_WALKED_PROCESSES = 1024;

/** The size each tmpfs is mounted with: the whole budget, and a page so that passing it shows. */
export function tmpfsBytes(maxWriteBytes: number): number {
  return maxWriteBytes + 4096;
}

/** The processes of a tree, parents before children (so a child that ends is never counted twice). */
function processTree(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0 && found.length < MAX_WALKED_PROCESSES) {
    const next = queue.shift() as number;
    found.push(next);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${next}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').split(' '))
          if (child.trim() !== '') queue.push(Number(child));
      } catch {
        // the task ended
      }
    }
  }
  return found;
}

function dirtiedBytes(pid: number): number {
  try {
    const match = /^write_bytes: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match === null ? 0 : Number(match[1]);
  } catch {
    return 0;
  }
}

function usedBytes(descriptor: number): number {
  const status = statfsSync(`/proc/self/fd/${descriptor}`);
  return (status.blocks - status.bfree) * status.bsize;
}

/** Whether this system can count a run's writes: /proc with per-process I/O and children. */
export function canWatchWrites(): boolean {
  try {
    readFileSync('/proc/self/io', 'utf8');
    readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8');
    return true;
  } catch {
    return false;
  }
}

export interface WriteWatchOptions {
  /** The process started for the run (bubblewrap, or the script itself when unsandboxed). */
  readonly pid: number;
  readonly maxWriteBytes: number;
  /** The sized tmpfs mounts, as paths inside the sandbox (none when unsandboxed). */
  readonly mounts: readonly string[];
  /** Count what the run's processes write to disk-backed files (a writable workspace). */
  readonly countDiskWrites: boolean;
  /** Called once, when the sum passes the budget. */
  readonly onExceeded: () => void;
  /**
   * Called once when every mount is held (true), or could not be found in time (false): the
   * script waits for it, so that not one byte it writes goes uncounted.
   */
  readonly onReady?: (found: boolean) => void;
}

export interface WriteWatch {
  /** Stops watching and takes the sum one last time (the tmpfs mounts are still held). */
  stop(): { readonly writtenBytes: number; readonly exceeded: boolean };
}

/** Watches the sum of a run's writes against its budget; see the top of this file. */
export function watchWrites(options: WriteWatchOptions): WriteWatch {
  const held = new Map<string, number>();
  const started = performance.now();
  const expected = tmpfsBytes(options.maxWriteBytes);
  let disk = 0;
  let exceeded = false;
  let timer: NodeJS.Timeout | undefined;

  // A mount is ours when it is a tmpfs of the size we asked for, on another device than the
  // host's folder of that name: before the sandbox has pivoted into its root, the path still
  // leads to the host's.
  const acquire = (tree: readonly number[]) => {
    for (const mount of options.mounts) {
      if (held.has(mount)) continue;
      for (const pid of tree.slice(1)) {
        const path = `/proc/${pid}/root${mount}`;
        try {
          const status = statfsSync(path);
          if (status.type !== TMPFS_MAGIC) continue;
          if (status.blocks * status.bsize !== Math.ceil(expected / status.bsize) * status.bsize)
            continue;
          const device = statSync(path).dev;
          let host: number | undefined;
          try {
            host = statSync(mount).dev;
          } catch {
            host = undefined;
          }
          if (device === host) continue;
          held.set(mount, openSync(path, constants.O_RDONLY | constants.O_DIRECTORY));
          break;
        } catch {
          // not there yet, or the process ended
        }
      }
    }
  };

  const measure = (): number => {
    let total = 0;
    for (const descriptor of held.values()) total += usedBytes(descriptor);
    return total + disk;
  };

  let ready = false;
  const tick = () => {
    const tree =
      options.countDiskWrites || held.size < options.mounts.length ? processTree(options.pid) : [];
    if (held.size < options.mounts.length) acquire(tree);
    const missing = held.size < options.mounts.length;
    if (!ready && (!missing || performance.now() - started > SETUP_TIMEOUT_MS)) {
      ready = true;
      options.onReady?.(!missing);
    }
    if (options.countDiskWrites) {
      let sum = 0;
      for (const pid of tree) sum += dirtiedBytes(pid);
      // The true count only grows; a child read just after it ended is missed once, not lost.
      disk = Math.max(disk, sum);
    }
    if (!exceeded && measure() > options.maxWriteBytes) {
      exceeded = true;
      options.onExceeded();
    }
    timer = setTimeout(tick, ready ? WATCH_INTERVAL_MS : SETUP_INTERVAL_MS);
    timer.unref();
  };
  if (options.mounts.length === 0) {
    ready = true;
    options.onReady?.(true);
  }
  timer = setTimeout(tick, ready ? WATCH_INTERVAL_MS : SETUP_INTERVAL_MS);
  timer.unref();

  return {
    stop: () => {
      clearTimeout(timer);
      const writtenBytes = measure();
      for (const descriptor of held.values()) closeSync(descriptor);
      held.clear();
      return { writtenBytes, exceeded: exceeded || writtenBytes > options.maxWriteBytes };
    },
  };
}

/** Classic BPF, as seccomp takes it. */
const LOAD_WORD = 0x20;
const JUMP_IF_EQUAL = 0x15;
const JUMP_IF_AT_LEAST = 0x35;
const RETURN = 0x06;
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const ENOSYS = 38;
const EOPNOTSUPP = 95;
const X32_SYSCALL_BIT = 0x40000000;

/** Audit architecture and system call numbers of the filtered calls, per Node architecture. */
const ARCHITECTURES: Readonly<
  Record<string, { audit: number; x32: boolean; calls: readonly (readonly [number, number])[] }>
> = {
  // [number, errno]: fallocate, memfd_create, shmget, io_uring_setup.
  x64: {
    audit: 0xc000003e,
    x32: true,
    calls: [
      [285, EOPNOTSUPP],
      [319, ENOSYS],
      [29, ENOSYS],
      [425, ENOSYS],
    ],
  },
  arm64: {
    audit: 0xc00000b7,
    x32: false,
    calls: [
      [47, EOPNOTSUPP],
      [279, ENOSYS],
      [194, ENOSYS],
      [425, ENOSYS],
    ],
  },
  riscv64: {
    audit: 0xc00000f3,
    x32: false,
    calls: [
      [47, EOPNOTSUPP],
      [279, ENOSYS],
      [194, ENOSYS],
      [425, ENOSYS],
    ],
  },
};

/**
 * The seccomp program bubblewrap installs (`--seccomp FD`): fallocate fails as a file system
 * without it would (programs then write, and the writes are counted), memfd_create, shmget and
 * io_uring_setup as a kernel without them; calls of another ABI (i386, x32) fail too, since
 * their numbers differ. Undefined on an architecture whose numbers are not known here.
 */
export function seccompProgram(architecture: string = process.arch): Buffer | undefined {
  const table = ARCHITECTURES[architecture];
  if (table === undefined) return undefined;
  const program: Array<readonly [number, number, number, number]> = [
    [LOAD_WORD, 0, 0, 4],
    [JUMP_IF_EQUAL, 1, 0, table.audit],
    [RETURN, 0, 0, ERRNO | ENOSYS],
    [LOAD_WORD, 0, 0, 0],
  ];
  if (table.x32)
    program.push([JUMP_IF_AT_LEAST, 0, 1, X32_SYSCALL_BIT], [RETURN, 0, 0, ERRNO | ENOSYS]);
  for (const [call, errno] of table.calls)
    program.push([JUMP_IF_EQUAL, 0, 1, call], [RETURN, 0, 0, ERRNO | errno]);
  program.push([RETURN, 0, 0, ALLOW]);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jumpTrue, jumpFalse, value], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jumpTrue, index * 8 + 2);
    bytes.writeUInt8(jumpFalse, index * 8 + 3);
    bytes.writeUInt32LE(value >>> 0, index * 8 + 4);
  });
  return bytes;
}
