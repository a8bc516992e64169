import type { EntryKind, ReadResult } from './deps.js';

/** How a read names what it found instead of a regular file. */
export function describeKind(kind: EntryKind): string {
  switch (kind) {
    case 'directory':
      return 'a directory';
    case 'fifo':
      return 'a FIFO (named pipe)';
    case 'socket':
      return 'a socket';
    case 'device':
      return 'a device';
    default:
      return 'not a regular file';
  }
}

/**
 * The answer of `SkillFileSystem.readFileWithin` for something that is not a regular file: the
 * same words from every file system (the node one and the in-memory one of skillhost/testing).
 */
export function notRegular(kind: EntryKind): ReadResult {
  return { ok: false, problem: 'not-regular', message: `It is ${describeKind(kind)}`, kind };
}
