import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { CacheStore } from '../deps.js';
import { nodeCrypto } from './hash.js';

const safeKey = /^[A-Za-z0-9._-]{1,200}$/;

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
    save(key, text) {
      if (!safeKey.test(key)) return;
      const target = join(directory, `${key}.json`);
      const temporary = `${target}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
      try {
        mkdirSync(directory, { recursive: true, mode: 0o700 });
        const fd = openSync(temporary, 'wx', 0o600);
        try {
          writeSync(fd, text);
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
    },
  };
}
