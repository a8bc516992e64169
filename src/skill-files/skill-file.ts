import type { Code } from '../codes.js';
import type { DirectoryEntry, ReadProblem } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { ReadLimits } from '../format/limits.js';

/** The diagnostic code for each way reading a SKILL.md can fail. */
export const SKILL_FILE_READ_CODES: Readonly<Record<ReadProblem, Code>> = {
  missing: 'SKILL_FILE_MISSING',
  'not-regular': 'SKILL_FILE_NOT_REGULAR',
  'symlink-escape': 'SKILL_FILE_SYMLINK_ESCAPE',
  'symlink-broken': 'SKILL_FILE_SYMLINK_BROKEN',
  'too-large': 'SKILL_FILE_TOO_LARGE',
  unreadable: 'SKILL_FILE_UNREADABLE',
};

/** Picks the skill file among a directory's entries: SKILL.md first, then skill.md. */
export function findSkillFileEntry(entries: readonly DirectoryEntry[]): DirectoryEntry | undefined {
  let lower: DirectoryEntry | undefined;
  for (const entry of entries) {
    if (entry.name === 'SKILL.md') return entry;
    if (entry.name === 'skill.md') lower = entry;
  }
  return lower;
}

/** The portability warning for a skill file named `skill.md`, if it is. */
export function lowercaseSkillFileWarning(fileName: string, file: string): Diagnostic | undefined {
  return fileName === 'skill.md'
    ? createDiagnostic(
        'SKILL_FILE_LOWERCASE',
        'warning',
        'The skill file is named skill.md; rename it to SKILL.md for every client to find it',
        file,
      )
    : undefined;
}

/**
 * How many bytes the metadata level reads: the frontmatter cap and a margin for the delimiter
 * lines and the first lines of the body. A frontmatter must close within them at every level.
 */
export function headBytes(limits: ReadLimits): number {
  return Math.min(limits.maxFrontmatterBytes + 8192, limits.maxSkillFileBytes);
}
