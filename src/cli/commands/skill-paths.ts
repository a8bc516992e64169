import {
  type CheckSkillOptions,
  checkSkillDirectory,
  type Diagnostic,
  findSkillFileEntry,
  loadYaml,
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
 * The skill directories below a tree, in sorted order; what the search itself ran into (a limit,
 * a loop, a folder it could not read) goes to `onFinding`: a limit is never silent.
 */
export function skillsInTree(
  fs: SkillFileSystem,
  directory: string,
  onFinding: (finding: Diagnostic) => void,
): Array<{ directory: string; skillFileName: string }> {
  const found: Array<{ directory: string; skillFileName: string }> = [];
  walkSkillTree(
    fs,
    directory,
    {
      skill: (skill) =>
        found.push({ directory: skill.directory, skillFileName: skill.skillFileName }),
      diagnostic: onFinding,
    },
    PATH_WALK,
  );
  return found.sort((a, b) => (a.directory < b.directory ? -1 : a.directory > b.directory ? 1 : 0));
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
