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
  /**
   * Told before the walk visits `children` of `directory`, in that order (a visitor that reads
   * each may read them ahead); the function returned, if any, is called when it is done with them.
   */
  children?(directory: string, children: readonly DirectoryEntry[]): (() => void) | undefined;
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
 * How far a walk has gone: what it counts against its limits, the codes it reports only once,
 * and whether a limit stopped it. A walk that goes on elsewhere (another thread's share of the
 * root's folders) starts from a fresh one; a walk that takes over starts from the one it follows.
 */
export interface WalkProgress {
  skills: number;
  directories: number;
  stopped: boolean;
  readonly reported: Set<Code>;
}

export function freshProgress(): WalkProgress {
  return { skills: 0, directories: 0, stopped: false, reported: new Set() };
}

function limitsOf(options: WalkOptions): WalkLimits {
  return {
    maxDepth: options.maxDepth ?? WALK_DEFAULTS.maxDepth,
    maxDirectories: options.maxDirectories ?? WALK_DEFAULTS.maxDirectories,
    maxSkills: options.maxSkills ?? WALK_DEFAULTS.maxSkills,
    followSymlinks: options.followSymlinks ?? WALK_DEFAULTS.followSymlinks,
    skipNames: options.skipNames ?? WALK_DEFAULTS.skipNames,
  };
}

/** The root's child folders in walk order, with what was listed to order them. */
export interface RootFolders {
  readonly realRoot: string;
  readonly children: readonly DirectoryEntry[];
  readonly listed: Map<string, FolderListing | undefined> | undefined;
}

/**
 * One walk's state and steps. `walkSkillTree` is `open` then `visitChildren`; a caller that
 * shares the root's folders with another thread visits its own share with `visitChildren` of a
 * walk with a fresh progress, and hands what is left to a walk that goes on from the progress
 * so far.
 */
export class TreeWalk {
  readonly limits: WalkLimits;
  readonly progress: WalkProgress;
  private readonly list: (directory: string) => FolderListing | undefined;
  private readonly visitedReal = new Set<string>();

  constructor(
    private readonly fs: SkillFileSystem,
    private readonly visitor: WalkVisitor,
    private readonly options: WalkOptions = {},
    progress: WalkProgress = freshProgress(),
  ) {
    const limits = limitsOf(options);
    this.limits = limits;
    this.progress = progress;
    this.list =
      visitor.list === undefined
        ? (directory) => listFolder(fs, directory, limits.skipNames)
        : (directory) => visitor.list?.(directory, limits.skipNames);
  }

  private readonly report: WalkReport = (code, message, path, once) => {
    if (once) {
      if (this.progress.reported.has(code)) return;
      this.progress.reported.add(code);
    }
    this.visitor.diagnostic(createDiagnostic(code, 'warning', message, path));
  };

  /**
   * Visits the root as the walk does every folder, up to its children: a skill root is reported
   * (and undefined returned), a folder to search gives its child folders in walk order.
   */
  open(root: string): RootFolders | undefined {
    const realRoot = this.fs.realPath(root) ?? root;
    this.visitedReal.add(realRoot);
    const listing = this.enter(root, realRoot);
    if (listing === undefined) return undefined;
    const listed = this.options.pathOrder === true ? new Map() : undefined;
    const children =
      listed === undefined ? listing.children : this.inPathOrder(root, listing.children, listed);
    return { realRoot, children, listed };
  }

  /** Visits `children` of `directory` (at `depth`) in the order given, until a limit stops it. */
  visitChildren(
    directory: string,
    realDirectory: string,
    depth: number,
    children: readonly DirectoryEntry[],
    listed?: Map<string, FolderListing | undefined>,
  ): void {
    const done = this.visitor.children?.(directory, children);
    try {
      this.visitEach(directory, realDirectory, depth, children, listed);
    } finally {
      done?.();
    }
  }

  private visitEach(
    directory: string,
    realDirectory: string,
    depth: number,
    children: readonly DirectoryEntry[],
    listed?: Map<string, FolderListing | undefined>,
  ): void {
    for (const { name, kind } of children) {
      const path = joinPath(directory, name);
      // Without links on the way, the real path is the path: keep one string for both.
      const real = realDirectory === directory ? path : joinPath(realDirectory, name);
      const childReal = descendInto(
        this.fs,
        { path, real, kind },
        realDirectory,
        depth,
        this.limits,
        this.visitedReal,
        this.report,
      );
      if (childReal === undefined) continue;
      this.visit(path, childReal, depth + 1, listed);
      if (this.progress.stopped) break;
    }
  }

  /**
   * The children in the order of the paths of what they hold: a folder's skills all start with
   * its name and '/', a skill directory's path ends with its name. Only a folder whose name
   * starts a sibling's followed by a character before '/' needs to be listed to know which.
   */
  private inPathOrder(
    directory: string,
    children: readonly DirectoryEntry[],
    listed: Map<string, FolderListing | undefined>,
  ): readonly DirectoryEntry[] {
    let keys: Map<DirectoryEntry, string> | undefined;
    for (let index = 0; index + 1 < children.length; index += 1) {
      const name = (children[index] as DirectoryEntry).name;
      const next = (children[index + 1] as DirectoryEntry).name;
      if (!next.startsWith(name) || next.charCodeAt(name.length) >= 0x2f) continue;
      const path = joinPath(directory, name);
      const listing = this.list(path);
      listed.set(path, listing);
      if (listing !== undefined && 'skillFile' in listing) continue;
      keys ??= new Map();
      keys.set(children[index] as DirectoryEntry, `${name}/`);
    }
    if (keys === undefined) return children;
    const key = (entry: DirectoryEntry) => keys?.get(entry) ?? entry.name;
    return [...children].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** A folder's visit up to its children: undefined when it is a skill, skipped, or a limit stops. */
  private enter(
    directory: string,
    realDirectory: string,
    listed?: Map<string, FolderListing | undefined>,
  ): { readonly children: readonly DirectoryEntry[] } | undefined {
    const { progress, limits } = this;
    if (progress.skills >= limits.maxSkills) {
      progress.stopped = true;
      this.report(
        'WALK_SKILL_LIMIT',
        `Stopped after finding ${limits.maxSkills} skills`,
        directory,
        true,
      );
      return undefined;
    }
    if (this.visitor.knownSkill?.(directory, realDirectory) === true) {
      progress.skills += 1;
      return undefined;
    }
    const listing = listed?.has(directory) === true ? listed.get(directory) : this.list(directory);
    listed?.delete(directory);
    if (listing === undefined) return undefined;
    if ('problem' in listing) {
      this.report(
        'WALK_UNREADABLE_DIRECTORY',
        `Directory skipped: ${listing.problem}`,
        directory,
        false,
      );
      return undefined;
    }
    if ('skillFile' in listing) {
      progress.skills += 1;
      const { name, kind } = listing.skillFile;
      this.visitor.skill({ directory, realDirectory, skillFileName: name, skillFileKind: kind });
      return undefined;
    }
    progress.directories += 1;
    if (progress.directories > limits.maxDirectories) {
      progress.stopped = true;
      this.report(
        'WALK_DIRECTORY_LIMIT',
        `Stopped after searching ${limits.maxDirectories} folders; skills further on were not found`,
        directory,
        true,
      );
      return undefined;
    }
    return listing;
  }

  private visit(
    directory: string,
    realDirectory: string,
    depth: number,
    listed?: Map<string, FolderListing | undefined>,
  ): void {
    const listing = this.enter(directory, realDirectory, listed);
    if (listing === undefined) return;
    const known = this.options.pathOrder === true ? new Map() : undefined;
    const children =
      known === undefined ? listing.children : this.inPathOrder(directory, listing.children, known);
    this.visitChildren(directory, realDirectory, depth, children, known);
  }
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
  const walk = new TreeWalk(fs, visitor, options);
  const folders = walk.open(root);
  if (folders !== undefined)
    walk.visitChildren(root, folders.realRoot, 0, folders.children, folders.listed);
  return { skills: walk.progress.skills, directories: walk.progress.directories };
}
