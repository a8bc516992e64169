import type { Code } from '../codes.js';
import type { ReadProblem, ReadResult } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import type { ReadLimits } from '../format/limits.js';
import { type ParsedSkill, parseSkill } from '../format/parse.js';
import { decodeSkillText } from '../format/text.js';
import { baseName } from '../paths.js';

/** The diagnostic code for each way reading a SKILL.md can fail. */
export const SKILL_FILE_READ_CODES: Readonly<Record<ReadProblem, Code>> = {
  missing: 'SKILL_FILE_MISSING',
  'not-regular': 'SKILL_FILE_NOT_REGULAR',
  'symlink-escape': 'SKILL_FILE_SYMLINK_ESCAPE',
  'symlink-broken': 'SKILL_FILE_SYMLINK_BROKEN',
  'too-large': 'SKILL_FILE_TOO_LARGE',
  unreadable: 'SKILL_FILE_UNREADABLE',
};

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

/** Cuts a partial read back to its last complete line, so no character is split. */
function lastCompleteLine(bytes: Uint8Array): Uint8Array {
  const end = bytes.lastIndexOf(10);
  return end === -1 ? bytes.subarray(0, 0) : bytes.subarray(0, end + 1);
}

/**
 * Turns a (possibly partial) read of a skill file into a parsed skill: read failures, a file
 * over the size limit and undecodable text become diagnostics (then undefined is returned); a
 * frontmatter still open at the end of a partial read is too large, not unclosed.
 */
export function parseSkillFileRead(
  read: ReadResult,
  fileName: string,
  file: string,
  directory: string,
  limits: ReadLimits,
  diagnostics: Diagnostic[],
): ParsedSkill | undefined {
  if (!read.ok) {
    diagnostics.push(
      createDiagnostic(
        SKILL_FILE_READ_CODES[read.problem],
        'error',
        `${fileName}: ${read.message}`,
        file,
      ),
    );
    return undefined;
  }
  if (read.status.size > limits.maxSkillFileBytes) {
    diagnostics.push(
      createDiagnostic(
        'SKILL_FILE_TOO_LARGE',
        'error',
        `${fileName}: It is larger than the ${limits.maxSkillFileBytes}-byte limit`,
        file,
      ),
    );
    return undefined;
  }
  const decoded = decodeSkillText(read.partial ? lastCompleteLine(read.bytes) : read.bytes, file);
  diagnostics.push(...decoded.diagnostics);
  if (decoded.text === undefined) return undefined;
  const parsed = parseSkill(decoded.text, { file, directoryName: baseName(directory) }, { limits });
  for (const diagnostic of parsed.diagnostics) {
    diagnostics.push(
      read.partial && diagnostic.code === 'FRONTMATTER_UNCLOSED'
        ? createDiagnostic(
            'FRONTMATTER_TOO_LARGE',
            'error',
            `No closing --- line within the first ${limits.maxFrontmatterBytes} bytes`,
            file,
            1,
            1,
          )
        : diagnostic,
    );
  }
  return parsed;
}
