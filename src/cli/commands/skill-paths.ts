import {
  type CheckSkillOptions,
  checkSkillDirectory,
  DEFAULT_READ_LIMITS,
  type Diagnostic,
  type FoundSkill,
  findSkillFileEntry,
  loadYaml,
  readingWalk,
  type SkillCheck,
  type SkillFileSystem,
  walkSkillTree,
} from '../../node/checks.js';

/**
 * How far the commands that take PATHs (validate, to-prompt) search a tree: deeper and wider
 * than the library's defaults, since the user named the folder. `--max-depth` overrides the depth.
 */
export const PATH_WALK = Object.freeze({
  maxDepth: 8,
  maxDirectories: 100_000,
  maxSkills: 1_000_000,
});

export type ResolvedTarget =
  | { readonly kind: 'skill'; readonly directory: string; readonly skillFileName: string }
  | { readonly kind: 'tree'; readonly directory: string }
  | { readonly kind: 'missing'; readonly message: string };

/** Decides what an absolute PATH argument names: one skill, a tree of skills, or nothing. */
export function resolveTarget(fs: SkillFileSystem, path: string): ResolvedTarget {
  const status = fs.status(path, true);
  if (status === undefined) return { kind: 'missing', message: `Path '${path}' does not exist` };
  if (status.kind !== 'directory') {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (name.toLowerCase() !== 'skill.md') {
      return {
        kind: 'missing',
        message: `Path '${path}' is neither a directory nor a SKILL.md file`,
      };
    }
    return {
      kind: 'skill',
      directory: path.slice(0, path.length - name.length - 1) || '/',
      skillFileName: name,
    };
  }
  const listing = fs.listDirectory(path);
  if (!listing.ok)
    return { kind: 'missing', message: `Directory '${path}' cannot be listed: ${listing.message}` };
  const entry = findSkillFileEntry(listing.entries);
  return entry === undefined
    ? { kind: 'tree', directory: path }
    : { kind: 'skill', directory: path, skillFileName: entry.name };
}

/**
 * Visits the skill directories below a tree in the order of their paths, each as the walk finds
 * it, with a file system that hands the reader the skill file the walk has just read (read it at
 * once, with `checkForProperties`). What the search itself ran into (a limit, a loop, a folder
 * it could not read) goes to `onFinding`: a limit is never silent.
 */
export function forEachSkillInTree(
  fs: SkillFileSystem,
  directory: string,
  onFinding: (finding: Diagnostic) => void,
  visit: (skill: FoundSkill, fs: SkillFileSystem) => void,
): void {
  const reading = readingWalk(fs, { maxBytes: DEFAULT_READ_LIMITS.maxSkillFileBytes });
  walkSkillTree(
    fs,
    directory,
    { skill: (skill) => visit(skill, reading.fs), diagnostic: onFinding, list: reading.list },
    { ...PATH_WALK, pathOrder: true },
  );
}

/** Parses one skill for its properties (no link checks), in strict mode. */
export function checkForProperties(
  fs: SkillFileSystem,
  directory: string,
  skillFileName: string,
  options: CheckSkillOptions = {},
): SkillCheck {
  return checkSkillDirectory(
    fs,
    { directory, skillFileName },
    { yaml: loadYaml, ...options, checkLinks: false },
  );
}
