import {
  type CheckedSkill,
  type CheckSkillOptions,
  checkSkillDirectory,
  checkTree,
  type Diagnostic,
  findSkillFileEntry,
  loadYaml,
  type SkillCheck,
  type SkillFileSystem,
  type TreeCheckHelper,
  treeCheckHelper,
} from '../../node/checks.js';
import type { CommandContext } from '../command.js';

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
 * Checks the skill directories below a tree for their properties (as `checkForProperties`
 * does, with `check` added), giving each verdict in the order of their paths. What the search
 * itself ran into (a limit, a loop, a folder it could not read) goes to `onFinding`: a limit is
 * never silent. With a helper, another thread takes a share of the tree's folders.
 */
export function checkSkillsInTree(
  fs: SkillFileSystem,
  directory: string,
  check: Omit<CheckSkillOptions, 'yaml' | 'checkLinks'>,
  onFinding: (finding: Diagnostic) => void,
  visit: (checked: CheckedSkill) => void,
  helper?: TreeCheckHelper,
): void {
  checkTree(
    fs,
    directory,
    {
      check: { ...check, checkLinks: false },
      walk: { ...PATH_WALK, pathOrder: true },
      yaml: loadYaml,
    },
    { skill: visit, diagnostic: onFinding },
    helper,
  );
}

/**
 * The second thread of the commands that check a whole tree, on the real file system, for a
 * tree of 20,000 folders or more. SKILLHOST_THREADS=1 keeps to one thread; SKILLHOST_THREADS=2
 * uses the second for a tree of any size.
 */
export function threads(deps: CommandContext['deps']): TreeCheckHelper | undefined {
  const wanted = deps.env.SKILLHOST_THREADS;
  if (wanted === '1') return undefined;
  return wanted === '2' ? treeCheckHelper(deps.fs, 1) : treeCheckHelper(deps.fs);
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
