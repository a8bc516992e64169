import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillhostError } from '../../errors.js';

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves a staged skill folder to `target` with one rename. With `replace`, an existing folder
 * is first renamed aside (into `aside`, a folder on the same file system), then removed once the
 * new one is in place; if the move fails, the old folder is put back.
 */
export function moveIntoPlace(
  staged: string,
  target: string,
  options: { readonly replace: boolean; readonly aside: string },
): void {
  mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
  if (!exists(target)) {
    renameSync(staged, target);
    return;
  }
  if (!options.replace)
    throw new SkillhostError('SKILL_EXISTS', `${target} already exists`, {
      details: { path: target },
    });
  const old = join(options.aside, `previous-${randomBytes(6).toString('hex')}`);
  renameSync(target, old);
  try {
    renameSync(staged, target);
  } catch (error) {
    renameSync(old, target);
    throw error;
  }
  rmSync(old, { recursive: true, force: true });
}

/** Removes an installed skill folder: renamed aside first, so it vanishes at once, then deleted. */
export function removeFolder(target: string, aside: string): void {
  if (!exists(target)) return;
  mkdirSync(aside, { recursive: true, mode: 0o700 });
  const old = join(aside, `removed-${randomBytes(6).toString('hex')}`);
  renameSync(target, old);
  rmSync(old, { recursive: true, force: true });
}

/** Writes a text file atomically: a temporary file beside it, then a rename. */
export function writeFileAtomically(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { mode, flag: 'wx' });
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
