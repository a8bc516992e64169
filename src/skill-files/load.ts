import type { SkillFileSystem } from '../deps.js';
import {
  compareDiagnostics,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
} from '../diagnostics.js';
import { SkillhostError } from '../errors.js';
import { checkBody } from '../format/body.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../format/limits.js';
import { type LoadedSkill, type LoadLevel, toSkillMetadata } from '../format/load.js';
import { checkFrontmatterFields, type ValidationMode } from '../format/validate-fields.js';
import { joinPath } from '../paths.js';
import { lowercaseSkillFileWarning, parseSkillFileRead } from './skill-file.js';
import { findSkillFileEntry } from './walker.js';

export interface ReadSkillOptions {
  /** `metadata` reads only as far as the frontmatter; `full` reads the body too (default). */
  readonly level?: LoadLevel;
  /** Lenient by default, as runtime loading should be. */
  readonly mode?: ValidationMode;
  readonly limits?: Partial<ReadLimits>;
}

export interface ReadSkillResult {
  /** The skill, when it has no errors. */
  readonly skill: LoadedSkill | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads one skill directory from a file system at either granularity. At the `metadata` level
 * only the head of SKILL.md is read: the body never enters memory.
 */
export function readSkillDirectory(
  fs: SkillFileSystem,
  directory: string,
  options: ReadSkillOptions = {},
): ReadSkillResult {
  const limits = { ...DEFAULT_READ_LIMITS, ...options.limits };
  const level = options.level ?? 'full';
  const mode = options.mode ?? 'lenient';
  const listing = fs.listDirectory(directory);
  if (!listing.ok) {
    const code = listing.problem === 'missing' ? 'PATH_NOT_FOUND' : 'PATH_UNREADABLE';
    return {
      skill: undefined,
      diagnostics: [
        createDiagnostic(code, 'error', `Skill directory: ${listing.message}`, directory),
      ],
    };
  }
  const entry = findSkillFileEntry(listing.entries);
  const file = joinPath(directory, entry?.name ?? 'SKILL.md');
  if (entry === undefined) {
    return {
      skill: undefined,
      diagnostics: [
        createDiagnostic('SKILL_FILE_MISSING', 'error', 'The directory has no SKILL.md', file),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const lowercase = lowercaseSkillFileWarning(entry.name, file);
  if (lowercase !== undefined) diagnostics.push(lowercase);
  const headBytes = limits.maxFrontmatterBytes + 8192;
  const partialRead = level === 'metadata' && headBytes < limits.maxSkillFileBytes;
  const read = fs.readFileWithin(directory, entry.name, {
    maxBytes: partialRead ? headBytes : limits.maxSkillFileBytes,
    allowPartial: partialRead,
    knownKind: entry.kind,
  });
  const parsed = parseSkillFileRead(read, entry.name, file, directory, limits, diagnostics);
  if (parsed === undefined) return { skill: undefined, diagnostics };
  diagnostics.push(...checkFrontmatterFields(parsed, { mode }));
  if (level === 'full') {
    diagnostics.push(
      ...checkBody(parsed, {
        fileExists: (relativePath) =>
          fs.status(joinPath(directory, relativePath), false) !== undefined,
      }),
    );
  }
  diagnostics.sort(compareDiagnostics);
  const metadata = toSkillMetadata(parsed);
  if (hasErrors(diagnostics) || metadata === undefined) return { skill: undefined, diagnostics };
  const skill: LoadedSkill =
    level === 'full'
      ? { file, metadata, body: (parsed.body ?? '').trim(), diagnostics }
      : { file, metadata, diagnostics };
  return { skill, diagnostics };
}

/** Like readSkillDirectory, but throws a SkillhostError (SKILL_INVALID) carrying the diagnostics. */
export function loadSkillDirectory(
  fs: SkillFileSystem,
  directory: string,
  options: ReadSkillOptions = {},
): LoadedSkill {
  const result = readSkillDirectory(fs, directory, options);
  if (result.skill !== undefined) return result.skill;
  const first = result.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  throw new SkillhostError(
    'SKILL_INVALID',
    `Skill at ${directory} cannot be loaded: ${first?.message ?? 'name or description is unusable'}`,
    { diagnostics: result.diagnostics, details: { directory } },
  );
}
