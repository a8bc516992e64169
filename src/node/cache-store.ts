import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { CacheStore } from '../deps.js';
import { nodeCrypto } from './hash.js';

const safeKey = /^[A-Za-z0-9._-]{1,200}$/;
/** How much of an entry is read at a time by `loadLines`. */
const PIECE_BYTES = 256 * 1024;

/**
 * The lines of an open file (split at every line feed, as `split('\n')` would: a last line
 * without one is a line too), read a piece at a time. The file is closed when the iteration
 * ends, stops or fails.
 */
function* linesOf(fd: number): Generator<string, void, undefined> {
  try {
    const piece = Buffer.allocUnsafe(PIECE_BYTES);
    // The bytes of a line begun in earlier pieces: UTF-8 is decoded only once a line is whole.
    let begun: Buffer[] = [];
    for (;;) {
      const count = readSync(fd, piece, 0, PIECE_BYTES, null);
      if (count === 0) break;
      let start = 0;
      for (;;) {
        const end = piece.indexOf(10, start);
        if (end === -1 || end >= count) break;
        if (begun.length === 0) yield piece.toString('utf8', start, end);
        else {
          begun.push(piece.subarray(start, end));
          const line = Buffer.concat(begun).toString('utf8');
          begun = [];
          yield line;
        }
        start = end + 1;
      }
      // The piece is reused: what is left of it is copied.
      if (start < count) begun.push(Buffer.from(piece.subarray(start, count)));
    }
    yield begun.length === 0 ? '' : Buffer.concat(begun).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `text`, however many writes it takes. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written);
}

/**
 * Writes the entry of `key` through `write` to a temporary file (0600) that replaces the entry
 * once it is on disk; nothing is left of a write that fails.
 */
function writeEntry(directory: string, key: string, write: (fd: number) => void): void {
  if (!safeKey.test(key)) return;
  const target = join(directory, `${key}.json`);
  const temporary = `${target}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temporary, 0o600);
    renameSync(temporary, target);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // nothing was written
    }
  }
}

/**
 * The index cache on disk: one file per key in `directory` (created 0700, files 0600), written
 * to a temporary file and renamed, so a crash never leaves half an entry. Errors are swallowed:
 * a cache that cannot be read or written only makes the next start slower.
 */
export function createDirectoryCacheStore(directory: string): CacheStore {
  return {
    locate: (key) => (safeKey.test(key) ? join(directory, `${key}.json`) : undefined),
    load(key) {
      if (!safeKey.test(key)) return undefined;
      try {
        return readFileSync(join(directory, `${key}.json`), 'utf8');
      } catch {
        return undefined;
      }
    },
    loadLines(key) {
      if (!safeKey.test(key)) return undefined;
      try {
        return linesOf(openSync(join(directory, `${key}.json`), 'r'));
      } catch {
        return undefined;
      }
    },
    save(key, text) {
      writeEntry(directory, key, (fd) => writeAll(fd, text));
    },
    saveLines(key, lines) {
      writeEntry(directory, key, (fd) => {
        // Written a piece at a time as the lines are made: the entry is never one string.
        let piece = '';
        let first = true;
        for (const line of lines) {
          piece += first ? line : `\n${line}`;
          first = false;
          if (piece.length >= PIECE_BYTES) {
            writeAll(fd, piece);
            piece = '';
          }
        }
        writeAll(fd, piece);
      });
    },
  };
}
