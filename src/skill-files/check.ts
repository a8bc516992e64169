import type { EntryKind, SkillFileSystem } from '../deps.js';
import {
  compareDiagnostics,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
} from '../diagnostics.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../format/limits.js';
import { parseSkill } from '../format/parse.js';
import { type SkillProperties, skillProperties } from '../format/properties.js';
import { decodeSkillText } from '../format/text.js';
import { detachString } from '../format/unicode.js';
import { validateSkill } from '../format/validate.js';
import type { ValidationMode } from '../format/validate-fields.js';
import { baseName, joinPath } from '../paths.js';
import { checkAllowedTools } from './grant-checks.js';
import { lowercaseSkillFileWarning, SKILL_FILE_READ_CODES } from './skill-file.js';

/** The verdict on one skill directory. */
export interface SkillCheck {
  /** Absolute path of the skill directory. */
  readonly path: string;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** Present whenever name and description could be read (reference read-properties shape). */
  readonly properties?: SkillProperties;
  /** Source lines that diagnostics point at, for excerpts in text output. */
  readonly excerpts: ReadonlyMap<number, string>;
}

export interface CheckSkillOptions {
  readonly mode?: ValidationMode;
  readonly limits?: Partial<ReadLimits>;
  /** Compute the reference-shaped properties (default true). */
  readonly properties?: boolean;
}

export interface SkillToCheck {
  readonly directory: string;
  readonly skillFileName: string;
  readonly skillFileKind?: EntryKind;
  /** Answers from a directory walk whether a relative path exists; undefined when unknown. */
  readonly listed?: (relativePath: string) => boolean | undefined;
}

const noExcerpts: ReadonlyMap<number, string> = new Map();

/**
 * Reads, parses and validates one skill directory through the injected file system. Every
 * problem becomes a diagnostic; nothing throws.
 */
export function checkSkillDirectory(
  fs: SkillFileSystem,
  skill: SkillToCheck,
  options: CheckSkillOptions = {},
): SkillCheck {
  const limits =
    options.limits === undefined
      ? DEFAULT_READ_LIMITS
      : { ...DEFAULT_READ_LIMITS, ...options.limits };
  const mode = options.mode ?? 'strict';
  const { directory, skillFileName } = skill;
  const file = joinPath(directory, skillFileName);
  const diagnostics: Diagnostic[] = [];
  const lowercase = lowercaseSkillFileWarning(skillFileName, file);
  if (lowercase !== undefined) diagnostics.push(lowercase);
  const read = fs.readFileWithin(directory, skillFileName, {
    maxBytes: limits.maxSkillFileBytes,
    ...(skill.skillFileKind === undefined ? {} : { knownKind: skill.skillFileKind }),
  });
  if (!read.ok) {
    diagnostics.push(
      createDiagnostic(
        SKILL_FILE_READ_CODES[read.problem],
        'error',
        `${skillFileName}: ${read.message}`,
        file,
      ),
    );
    return { path: directory, valid: false, diagnostics, excerpts: noExcerpts };
  }
  const decoded = decodeSkillText(read.bytes, file);
  diagnostics.push(...decoded.diagnostics);
  if (decoded.text === undefined) {
    return { path: directory, valid: false, diagnostics, excerpts: noExcerpts };
  }
  const parsed = parseSkill(
    decoded.text,
    { file, directoryName: baseName(directory) },
    options.limits === undefined ? {} : { limits },
  );
  const listed = skill.listed;
  const fileExists = (relativePath: string): boolean | undefined => {
    const known = listed?.(relativePath);
    if (known !== undefined) return known;
    return fs.status(joinPath(directory, relativePath), false) !== undefined;
  };
  for (const diagnostic of validateSkill(parsed, { mode, fileExists }))
    diagnostics.push(diagnostic);
  for (const diagnostic of checkAllowedTools(parsed)) diagnostics.push(diagnostic);

  if (diagnostics.length > 1) diagnostics.sort(compareDiagnostics);
  const excerpts = diagnostics.length === 0 ? noExcerpts : new Map<number, string>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.line > 0 && !excerpts.has(diagnostic.line)) {
      const text = parsed.lineText(diagnostic.line);
      (excerpts as Map<number, string>).set(
        diagnostic.line,
        text.length > 240 ? `${text.slice(0, 240)}…` : detachString(text),
      );
    }
  }
  const properties = options.properties === false ? undefined : skillProperties(parsed);
  return {
    path: directory,
    valid: !hasErrors(diagnostics),
    diagnostics,
    ...(properties === undefined ? {} : { properties }),
    excerpts,
  };
}
