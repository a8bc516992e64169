/**
 * skillhost/node — everything that touches the operating system, plus the whole core API, so
 * that Node programs need only this entry. Every export is public API. The functions that parse
 * YAML get `loadYaml` as their default: the YAML library is loaded on first need (most
 * frontmatter is read by the fast scanner without it).
 */
import { isAbsolute, resolve } from 'node:path';
import {
  type SkillRegistry as CoreSkillRegistry,
  type LoadedSkill,
  type ReadSkillOptions,
  type ReadSkillResult,
  type SkillFileSystem,
  SkillhostError,
  type ValidatePathsOptions,
  type ValidationReport,
} from '../core.js';
import { bindYaml } from '../internal.js';
import { createNodeFileSystem } from './fs.js';
import { loadYaml } from './yaml.js';

export * from '../core.js';

export const {
  checkSkillDirectory,
  createSkillRuntime,
  listAgents,
  loadSkill,
  loadSkillDirectory,
  parseAgentManifest,
  parseSkill,
  readAgent,
  readSkillDirectory,
  readSkillFile,
  readSkillRecord,
  scanSource,
  SkillRegistry,
  validateSkillPaths,
} = bindYaml(loadYaml);
export type SkillRegistry = CoreSkillRegistry;

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
export { loadYaml } from './yaml.js';

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
