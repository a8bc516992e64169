import type { Code } from '../codes.js';
import type { DirectoryEntry, EntryKind, SkillFileSystem } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { isWithinPath, joinPath } from '../paths.js';
import { findSkillFileEntry } from './skill-file.js';

/** The limits of a search for skills below a root. */
export interface WalkLimits {
  /** How many folder levels below the root are searched. */
  readonly maxDepth: number;
  /** Most folders searched per root; skill directories do not count (they are not searched). */
  readonly maxDirectories: number;
  /** Most skills found per root. */
  readonly maxSkills: number;
  /**
   * Follow symbolically linked directories, never into a loop. Off by default: a link can lead
   * anywhere, so a skipped link is reported instead.
   */
  readonly followSymlinks: boolean;
  /** Folder names never entered. */
  readonly skipNames: ReadonlySet<string>;
}

export type WalkOptions = Partial<WalkLimits> & {
  /**
   * Find skills in the order of their paths (as strings compared by code unit) rather than
   * folder by folder in name order. The two differ only where a folder's name is the start of a
   * sibling's followed by a character before '/' (`pdf/x` comes after `pdf-tools`): such a
   * folder is listed before its siblings are ordered. A caller that reports as it goes (a
   * streamed `validate --json`) needs the sorted order without holding every result.
   */
  readonly pathOrder?: boolean;
};

/**
 * The one table of walk limits, the library's defaults for discovery and validation alike (the
 * CLI's `validate` passes its own depth and folder limit).
 */
export const WALK_DEFAULTS: WalkLimits = Object.freeze({
  maxDepth: 6,
  maxDirectories: 2000,
  maxSkills: 50_000,
  followSymlinks: false,
  skipNames: new Set(['.git', 'node_modules']) as ReadonlySet<string>,
});

/** A directory that holds an entry named SKILL.md or skill.md, whatever its type. */
export interface FoundSkill {
  readonly directory: string;
  /** The directory's real path (links resolved); the same string as `directory` without links. */
  readonly realDirectory: string;
  readonly skillFileName: string;
  readonly skillFileKind: EntryKind;
}

/**
 * What listing a folder tells the walker: it is a skill directory (a leaf: its sub-folders are
 * the skill's resources, never searched for more skills), or a folder whose child folders (skip
 * names left out, sorted by name) are searched, or it could not be listed.
 */
export type FolderListing =
  | { readonly skillFile: DirectoryEntry }
  | { readonly children: readonly DirectoryEntry[] }
  | { readonly problem: string };

export interface WalkVisitor {
  /** Called for every skill directory found, in sorted order. */
  skill(found: FoundSkill): void;
  /** Called for findings about the tree itself (limits, loops, unreadable folders). */
  diagnostic(diagnostic: Diagnostic): void;
  /**
   * Reuse, for a caller that remembers an earlier walk (discovery): true when `directory` is a
   * skill directory it already knows and that is unchanged. The walker counts it as found and
   * goes on, neither listing it nor calling `skill`.
   */
  knownSkill?(directory: string, realDirectory: string): boolean;
  /**
   * Lists a folder in the walker's place (discovery reuses a listing whose folder is unchanged);
   * undefined skips the folder without a word. Default: `listFolder`.
   */
  list?(directory: string, skipNames: ReadonlySet<string>): FolderListing | undefined;
}

/** Reports a walk problem: code, message, path, and whether to report the code only once. */
export type WalkReport = (code: Code, message: string, path: string, once: boolean) => void;

function byName(a: DirectoryEntry, b: DirectoryEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Lists a folder for the walker: its skill file if it has one, else its child folders. */
export function listFolder(
  fs: SkillFileSystem,
  directory: string,
  skipNames: ReadonlySet<string>,
): FolderListing {
  const listing = fs.listDirectory(directory);
  if (!listing.ok) return { problem: listing.message };
  const skillFile = findSkillFileEntry(listing.entries);
  if (skillFile !== undefined) return { skillFile };
  const children: DirectoryEntry[] = [];
  for (const entry of listing.entries) {
    if ((entry.kind === 'directory' || entry.kind === 'symlink') && !skipNames.has(entry.name))
      children.push(entry);
  }
  return { children: children.sort(byName) };
}

/**
 * The rule for descending into a child folder: a link is followed only when allowed, to a
 * directory, and never back into what was already searched; nothing deeper than the depth limit.
 * Returns the child's real path, or undefined to skip it.
 */
function descendInto(
  fs: SkillFileSystem,
  child: { readonly path: string; readonly real: string; readonly kind: EntryKind },
  parentReal: string,
  depth: number,
  limits: WalkLimits,
  visitedReal: Set<string>,
  report: WalkReport,
): string | undefined {
  let real = child.real;
  if (child.kind === 'symlink') {
    const target = fs.status(child.path, true);
    if (target === undefined || target.kind !== 'directory') return undefined;
    if (!limits.followSymlinks) {
      report(
        'WALK_SYMLINK_SKIPPED',
        'Linked directory not followed; follow links explicitly to search it',
        child.path,
        false,
      );
      return undefined;
    }
    const resolved = fs.realPath(child.path);
    if (resolved === undefined) return undefined;
    if (isWithinPath(resolved, parentReal) || visitedReal.has(resolved)) {
      report(
        'WALK_SYMLINK_LOOP',
        'Linked directory leads back into a directory already searched; skipped',
        child.path,
        false,
      );
      return undefined;
    }
    real = resolved;
  }
  if (depth + 1 > limits.maxDepth) {
    report(
      'WALK_DEPTH_LIMIT',
      `Directories deeper than ${limits.maxDepth} levels were not searched`,
      child.path,
      true,
    );
    return undefined;
  }
  // Only a followed link can lead back into what was searched: without links, keep no record.
  if (limits.followSymlinks) visitedReal.add(real);
  return real;
}

/**
 * The one walker: searches a tree depth-first in sorted order for skill directories (the root
 * included). A skill directory is a leaf. Bounded in depth, folders and skills; skips the skip
 * names; follows linked directories only when asked and never into a loop; reports what it
 * skipped. Discovery plugs its reuse of an earlier scan in through `knownSkill` and `list`.
 */
export function walkSkillTree(
  fs: SkillFileSystem,
  root: string,
  visitor: WalkVisitor,
  options: WalkOptions = {},
): { readonly skills: number; readonly directories: number } {
  const limits: WalkLimits = {
    maxDepth: options.maxDepth ?? WALK_DEFAULTS.maxDepth,
    maxDirectories: options.maxDirectories ?? WALK_DEFAULTS.maxDirectories,
    maxSkills: options.maxSkills ?? WALK_DEFAULTS.maxSkills,
    followSymlinks: options.followSymlinks ?? WALK_DEFAULTS.followSymlinks,
    skipNames: options.skipNames ?? WALK_DEFAULTS.skipNames,
  };
  const list =
    visitor.list === undefined
      ? (directory: string) => listFolder(fs, directory, limits.skipNames)
      : (directory: string) => visitor.list?.(directory, limits.skipNames);
  const visitedReal = new Set<string>();
  const reported = new Set<Code>();
  let skills = 0;
  let directories = 0;
  let stopped = false;

  const report: WalkReport = (code, message, path, once) => {
    if (once) {
      if (reported.has(code)) return;
      reported.add(code);
    }
    visitor.diagnostic(createDiagnostic(code, 'warning', message, path));
  };

  /**
   * The children in the order of the paths of what they hold: a folder's skills all start with
   * its name and '/', a skill directory's path ends with its name. Only a folder whose name
   * starts a sibling's followed by a character before '/' needs to be listed to know which.
   */
  const inPathOrder = (
    directory: string,
    children: readonly DirectoryEntry[],
    listed: Map<string, FolderListing | undefined>,
  ): readonly DirectoryEntry[] => {
    let keys: Map<DirectoryEntry, string> | undefined;
    for (let index = 0; index + 1 < children.length; index += 1) {
      const name = (children[index] as DirectoryEntry).name;
      const next = (children[index + 1] as DirectoryEntry).name;
      if (!next.startsWith(name) || next.charCodeAt(name.length) >= 0x2f) continue;
      const path = joinPath(directory, name);
      const listing = list(path);
      listed.set(path, listing);
      if (listing !== undefined && 'skillFile' in listing) continue;
      keys ??= new Map();
      keys.set(children[index] as DirectoryEntry, `${name}/`);
    }
    if (keys === undefined) return children;
    const key = (entry: DirectoryEntry) => keys?.get(entry) ?? entry.name;
    return [...children].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  };

  const visit = (
    directory: string,
    realDirectory: string,
    depth: number,
    listed?: Map<string, FolderListing | undefined>,
  ): void => {
    if (skills >= limits.maxSkills) {
      stopped = true;
      report(
        'WALK_SKILL_LIMIT',
        `Stopped after finding ${limits.maxSkills} skills`,
        directory,
        true,
      );
      return;
    }
    if (visitor.knownSkill?.(directory, realDirectory) === true) {
      skills += 1;
      return;
    }
    const listing = listed?.has(directory) === true ? listed.get(directory) : list(directory);
    listed?.delete(directory);
    if (listing === undefined) return;
    if ('problem' in listing) {
      report(
        'WALK_UNREADABLE_DIRECTORY',
        `Directory skipped: ${listing.problem}`,
        directory,
        false,
      );
      return;
    }
    if ('skillFile' in listing) {
      skills += 1;
      const { name, kind } = listing.skillFile;
      visitor.skill({ directory, realDirectory, skillFileName: name, skillFileKind: kind });
      return;
    }
    directories += 1;
    if (directories > limits.maxDirectories) {
      stopped = true;
      report(
        'WALK_DIRECTORY_LIMIT',
        `Stopped after searching ${limits.maxDirectories} folders; skills further on were not found`,
        directory,
        true,
      );
      return;
    }
    const known =
      options.pathOrder === true ? new Map<string, FolderListing | undefined>() : undefined;
    const children =
      known === undefined ? listing.children : inPathOrder(directory, listing.children, known);
    for (const { name, kind } of children) {
      const path = joinPath(directory, name);
      // Without links on the way, the real path is the path: keep one string for both.
      const real = realDirectory === directory ? path : joinPath(realDirectory, name);
      const childReal = descendInto(
        fs,
        { path, real, kind },
        realDirectory,
        depth,
        limits,
        visitedReal,
        report,
      );
      if (childReal === undefined) continue;
      visit(path, childReal, depth + 1, known);
      if (stopped) break;
    }
  };

  const realRoot = fs.realPath(root) ?? root;
  visitedReal.add(realRoot);
  visit(root, realRoot, 0);
  return { skills, directories };
}
