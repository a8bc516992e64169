import { chmodSync, copyFileSync, type Dirent, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SkillhostError } from '../errors.js';

const MAX_STAGED_ENTRIES = 2000;
const MAX_STAGED_BYTES = 64 * 1024 * 1024;

/** Copies the skill's folders and regular files (no links, no devices) within bounds. */
export function stageSkill(source: string, target: string): void {
  let entries = 0;
  let bytes = 0;
  const copy = (from: string, to: string, depth: number): void => {
    mkdirSync(to, { mode: 0o755 });
    if (depth > 16) return;
    let listing: Dirent[];
    try {
      listing = readdirSync(from, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of listing) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      entries += 1;
      if (entries > MAX_STAGED_ENTRIES) {
        throw new SkillhostError(
          'SCRIPT_TOO_LARGE',
          `The skill has more than ${MAX_STAGED_ENTRIES} files to stage`,
        );
      }
      const fromPath = join(from, entry.name);
      const toPath = join(to, entry.name);
      if (entry.isDirectory()) copy(fromPath, toPath, depth + 1);
      else if (entry.isFile()) {
        bytes += statSync(fromPath).size;
        if (bytes > MAX_STAGED_BYTES) {
          throw new SkillhostError(
            'SCRIPT_TOO_LARGE',
            `The skill holds more than ${MAX_STAGED_BYTES} bytes to stage`,
          );
        }
        copyFileSync(fromPath, toPath);
        chmodSync(toPath, 0o644);
      }
    }
  };
  copy(source, target, 0);
}
