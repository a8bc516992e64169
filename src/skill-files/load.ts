import type { SkillFileSystem } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { SkillhostError } from '../errors.js';
import type { ReadLimits } from '../format/limits.js';
import { type LoadedSkill, type LoadLevel, loadedBody, toSkillMetadata } from '../format/load.js';
import type { ValidationMode } from '../format/validate-fields.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { joinPath } from '../paths.js';
import { readSkillFile } from './reader.js';
import { findSkillFileEntry } from './skill-file.js';

export interface ReadSkillOptions {
  /** `metadata` reads only as far as the frontmatter; `full` reads the body too (default). */
  readonly level?: LoadLevel;
  /** Lenient by default, as runtime loading should be. */
  readonly mode?: ValidationMode;
  readonly limits?: Partial<ReadLimits>;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
}

export interface ReadSkillResult {
  /** The skill, when it has no errors. */
  readonly skill: LoadedSkill | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads one skill directory from a file system at either granularity (the reader, lenient by
 * default). At the `metadata` level only the head of SKILL.md is read: the body never enters memory.
 */
export function readSkillDirectory(
  fs: SkillFileSystem,
  directory: string,
  options: ReadSkillOptions = {},
): ReadSkillResult {
  const level = options.level ?? 'full';
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
  if (entry === undefined) {
    return {
      skill: undefined,
      diagnostics: [
        createDiagnostic(
          'SKILL_FILE_MISSING',
          'error',
          'The directory has no SKILL.md',
          joinPath(directory, 'SKILL.md'),
        ),
      ],
    };
  }
  const reading = readSkillFile(
    fs,
    { directory, skillFileName: entry.name, skillFileKind: entry.kind },
    {
      level,
      mode: options.mode ?? 'lenient',
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.yaml === undefined ? {} : { yaml: options.yaml }),
    },
  );
  const { file, parsed, diagnostics } = reading;
  const metadata = parsed === undefined || !reading.valid ? undefined : toSkillMetadata(parsed);
  if (parsed === undefined || metadata === undefined) return { skill: undefined, diagnostics };
  const skill: LoadedSkill =
    level === 'full'
      ? { file, metadata, body: loadedBody(parsed), diagnostics }
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
