import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder only its owner can enter (0700) holding files only its owner can read (0600): where a
 * command-line agent's system prompt and MCP settings wait for it, instead of its command line
 * (which every user of the machine can read in /proc). Removed when the session ends.
 */
export interface PrivateFolder {
  readonly path: string;
  /** Writes a new file (never over an existing one) and answers its path. */
  write(name: string, text: string): string;
  /** Removes the folder and its files; safe to call more than once. */
  remove(): void;
}

export function makePrivateFolder(prefix: string, parent: string = tmpdir()): PrivateFolder {
  // mkdtemp makes the folder with mode 0700.
  const path = mkdtempSync(join(parent, prefix));
  let removed = false;
  return {
    path,
    write: (name, text) => {
      if (name.includes('/') || name.startsWith('.'))
        throw new Error(`not a plain file name: ${name}`);
      const file = join(path, name);
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
      return file;
    },
    remove: () => {
      if (removed) return;
      removed = true;
      rmSync(path, { recursive: true, force: true });
    },
  };
}
