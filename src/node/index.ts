/**
 * skillhost/node — everything that touches the operating system, plus the whole core API, so
 * that Node programs need only this entry. Every export is public API. The YAML library is
 * loaded on first need (most frontmatter is read by the fast scanner without it).
 */
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import {
  type LoadedSkill,
  loadSkillDirectory,
  type ReadSkillOptions,
  type ReadSkillResult,
  readSkillDirectory,
  registerYamlLoader,
  type SkillFileSystem,
  SkillhostError,
  type ValidatePathsOptions,
  type ValidationReport,
  validateSkillPaths,
  type YamlEngine,
} from '../core.js';
import { createNodeFileSystem } from './fs.js';

const requireFromHere = createRequire(import.meta.url);
registerYamlLoader(() => requireFromHere('yaml') as YamlEngine);

export * from '../core.js';

export { createJsonlAuditSink, type JsonlSinkOptions, readAuditLogFile } from './audit-sink.js';
export { createDirectoryCacheStore } from './cache-store.js';
export { createNodeFileSystem, isInside } from './fs.js';
export { sha256 } from './hash.js';
export {
  type HttpListener,
  type IncomingMessage,
  listenHttp,
  type ServerResponse,
} from './http.js';
export { nodeRuntimeDeps } from './runtime-deps.js';

export { createSandboxRunner, probeBubblewrap, type SandboxOptions } from './sandbox.js';

export { createChokidarWatcher } from './watch.js';

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
      `Relative path '${path}' needs the cwd option (the library does not read the working directory)`,
      { details: { path } },
    );
  }
  return resolve(cwd, path);
}

export interface NodeValidateOptions extends Omit<ValidatePathsOptions, 'fs'> {
  readonly fs?: SkillFileSystem;
  /** Base for relative paths; without it, paths must be absolute. */
  /** Base for a relative directory; without it, the directory must be absolute. */
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
