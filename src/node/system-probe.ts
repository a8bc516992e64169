import { lstatSync, readdirSync } from 'node:fs';
import { probeBubblewrap } from './sandbox.js';
import { childProcess, findExecutable } from './sandbox-system.js';

/** What `skillhost doctor` checks of this machine. */
export interface SystemFacts {
  /** This process's Node.js version, e.g. `20.19.0`. */
  readonly node: string;
  readonly platform: string;
  readonly bubblewrap: { readonly available: boolean; readonly reason: string };
  /** The `prlimit` program (util-linux), when installed. */
  readonly prlimit: string | undefined;
  /** The `git` program and its version, when installed. */
  readonly git: { readonly path: string; readonly version: string } | undefined;
}

/** Probes the machine: Node.js, bubblewrap (one sandboxed /bin/true), prlimit and git. */
export function probeSystem(): SystemFacts {
  const git = findExecutable('git');
  let version = '';
  if (git !== undefined) {
    const run = childProcess().spawnSync(git, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    version = run.status === 0 ? run.stdout.trim().replace(/^git version /, '') : '';
  }
  const sandbox = probeBubblewrap();
  return {
    node: process.versions.node,
    platform: process.platform,
    bubblewrap: { available: sandbox.available, reason: sandbox.reason },
    prlimit: findExecutable('prlimit'),
    git: git === undefined ? undefined : { path: git, version },
  };
}

/** A file's status as a permission check needs it (the link itself, never followed). */
export interface FileFacts {
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits, e.g. 0o600. */
  readonly mode: number;
  /** Whether it belongs to this process's user (true where that cannot be told). */
  readonly ownedByUser: boolean;
}

export function fileFacts(path: string): FileFacts | undefined {
  try {
    const status = lstatSync(path);
    return {
      kind: status.isFile()
        ? 'file'
        : status.isDirectory()
          ? 'directory'
          : status.isSymbolicLink()
            ? 'symlink'
            : 'other',
      mode: status.mode & 0o7777,
      ownedByUser: typeof process.getuid !== 'function' || status.uid === process.getuid(),
    };
  } catch {
    return undefined;
  }
}

/** How many files a folder holds and their bytes, at most `maxFiles` counted (links not followed). */
export function folderUsage(
  path: string,
  maxFiles = 100_000,
): { files: number; bytes: number } | undefined {
  let files = 0;
  let bytes = 0;
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (files >= maxFiles) return;
      const full = `${folder}/${entry.name}`;
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) {
        files += 1;
        bytes += lstatSync(full).size;
      }
    }
  };
  try {
    if (!lstatSync(path).isDirectory()) return undefined;
    visit(path);
  } catch {
    return undefined;
  }
  return { files, bytes };
}
