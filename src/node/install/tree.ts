import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ARCHIVE_LIMITS } from '../../core.js';
import { SkillhostError } from '../../errors.js';
import { sha256 } from '../hash.js';

/** Bounds on one copy: the archive limits (10,000 files, 100 MiB). */
export interface TreeLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export const TREE_LIMITS: TreeLimits = {
  maxFiles: ARCHIVE_LIMITS.maxEntries,
  maxBytes: ARCHIVE_LIMITS.maxBytes,
};

/** A file of the source left out of the copy, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

export interface CopiedTree {
  /** Every file copied (POSIX path relative to the folder) and the SHA-256 of its bytes. */
  readonly files: Record<string, string>;
  readonly skipped: readonly SkippedFile[];
}

/** Folders never copied: a repository's own metadata. */
const NEVER_COPIED = new Set(['.git']);

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/** Reads a regular file without following a link, checked on the opened descriptor. */
function readRegular(path: string, follow: boolean): { bytes: Buffer; status: Stats } | undefined {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW),
    );
  } catch {
    return undefined;
  }
  try {
    const status = fstatSync(fd);
    if (!status.isFile()) return undefined;
    return { bytes: readFileSync(fd), status };
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies a skill folder into `to` (which must not exist) and hashes every file copied. Regular
 * files and folders are copied with plain permissions (0644, or 0755 when executable); a link to
 * a file inside the skill becomes a copy of that file; links that lead outside the skill, linked
 * folders, devices, FIFOs and sockets are left out and named; `.git` is never copied. Past
 * `limits` the copy fails with SOURCE_TOO_LARGE.
 */
export function copySkillFolder(
  from: string,
  to: string,
  limits: TreeLimits = TREE_LIMITS,
): CopiedTree {
  const files: Record<string, string> = {};
  const skipped: SkippedFile[] = [];
  const root = realpathSync(from);
  let count = 0;
  let bytes = 0;
  mkdirSync(to, { mode: 0o755 });
  const visit = (relative: string): void => {
    const source = relative === '' ? root : join(root, relative);
    const names = readdirSync(source).sort();
    for (const name of names) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const full = join(source, name);
      const status = lstatSync(full);
      if (status.isDirectory()) {
        if (NEVER_COPIED.has(name)) continue;
        mkdirSync(join(to, path), { mode: 0o755 });
        visit(path);
        continue;
      }
      let read: { bytes: Buffer; status: Stats } | undefined;
      if (status.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(full);
        } catch {
          skipped.push({ path, reason: 'a broken link' });
          continue;
        }
        if (!isInside(root, real)) {
          skipped.push({ path, reason: 'a link that leads outside the skill' });
          continue;
        }
        if (statSync(real).isDirectory()) {
          skipped.push({ path, reason: 'a linked folder' });
          continue;
        }
        read = readRegular(real, false);
      } else if (status.isFile()) read = readRegular(full, false);
      if (read === undefined) {
        skipped.push({
          path,
          reason: status.isFile() || status.isSymbolicLink() ? 'unreadable' : 'a special file',
        });
        continue;
      }
      count += 1;
      bytes += read.bytes.length;
      if (count > limits.maxFiles || bytes > limits.maxBytes)
        throw new SkillhostError(
          'SOURCE_TOO_LARGE',
          `${from} holds more than ${limits.maxFiles} files or ${limits.maxBytes} bytes`,
          { details: { path: from } },
        );
      writeFileSync(join(to, path), read.bytes, {
        flag: 'wx',
        mode: read.status.mode & 0o111 ? 0o755 : 0o644,
      });
      files[path] = sha256(read.bytes);
    }
  };
  visit('');
  return { files, skipped };
}

/** A marker in place of a hash for what is not a regular file: it never equals a recorded hash. */
const NOT_A_FILE = 'not-a-regular-file';

/**
 * The SHA-256 of every file of an installed skill folder, to compare with the lockfile. Links
 * and special files are not followed: they appear with a marker that matches no hash. Undefined
 * when the folder does not exist.
 */
export function hashSkillFolder(
  folder: string,
  limits: TreeLimits = TREE_LIMITS,
): Record<string, string> | undefined {
  try {
    if (!lstatSync(folder).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const files: Record<string, string> = {};
  let count = 0;
  const visit = (relative: string): void => {
    const source = relative === '' ? folder : join(folder, relative);
    for (const name of readdirSync(source).sort()) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const full = join(source, name);
      const status = lstatSync(full);
      if (status.isDirectory()) {
        if (!NEVER_COPIED.has(name)) visit(path);
        continue;
      }
      count += 1;
      if (count > limits.maxFiles) return;
      const read = status.isFile() ? readRegular(full, false) : undefined;
      files[path] = read === undefined ? NOT_A_FILE : sha256(read.bytes);
    }
  };
  visit('');
  return files;
}
