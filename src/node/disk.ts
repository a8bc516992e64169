import { isAbsolute, resolve } from 'node:path';
import {
  type LoadedSkill,
  type ReadSkillOptions,
  type ReadSkillResult,
  type SkillFileSystem,
  SkillhostError,
  type ValidatePathsOptions,
  type ValidationReport,
} from '../core.js';
import { bindYaml } from '../internal.js';
import { quote } from '../quote.js';
import { createNodeFileSystem } from './fs.js';
import { loadYaml } from './yaml.js';

const { loadSkillDirectory, readSkillDirectory, validateSkillPaths } = bindYaml(loadYaml);

let sharedFileSystem: SkillFileSystem | undefined;

function defaultFileSystem(): SkillFileSystem {
  sharedFileSystem ??= createNodeFileSystem();
  return sharedFileSystem;
}

/** Makes a path absolute against `cwd`; the library never reads the process's working directory. */
function absolute(path: string, cwd: string | undefined): string {
  if (isAbsolute(path)) return resolve(path);
  if (cwd === undefined) {
    throw new SkillhostError(
      'USAGE',
      `Relative path ${quote(path)} needs the cwd option (the library does not read the working directory)`,
      { details: { path } },
    );
  }
  return resolve(cwd, path);
}

export interface NodeValidateOptions extends Omit<ValidatePathsOptions, 'fs'> {
  readonly fs?: SkillFileSystem;
  /** Base for relative paths; without it, paths must be absolute. */
  readonly cwd?: string;
}

/**
 * Validates skill directories, SKILL.md files or trees of skills on disk.
 *
 * @example const report = validatePaths(['/work/skills'], { mode: 'strict' });
 */
export function validatePaths(
  paths: readonly string[],
  options: NodeValidateOptions = {},
): ValidationReport {
  return validateSkillPaths(
    paths.map((path) => absolute(path, options.cwd)),
    { ...options, fs: options.fs ?? defaultFileSystem() },
  );
}

export interface NodeReadSkillOptions extends ReadSkillOptions {
  readonly fs?: SkillFileSystem;
  /** Base for a relative directory; without it, the directory must be absolute. */
  readonly cwd?: string;
}

/** Reads one skill directory from disk (lenient); returns the skill when usable, and every diagnostic. */
export function readSkill(directory: string, options: NodeReadSkillOptions = {}): ReadSkillResult {
  const path = absolute(directory, options.cwd);
  return readSkillDirectory(options.fs ?? defaultFileSystem(), path, options);
}

/** Loads one skill directory from disk, or throws a SkillhostError with code SKILL_INVALID. */
export function loadSkillFromDisk(
  directory: string,
  options: NodeReadSkillOptions = {},
): LoadedSkill {
  const path = absolute(directory, options.cwd);
  return loadSkillDirectory(options.fs ?? defaultFileSystem(), path, options);
}
