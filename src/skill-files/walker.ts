import type { Code } from '../codes.js';
import type { DirectoryEntry, EntryKind, SkillFileSystem } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { isWithinPath, joinPath } from '../paths.js';
import { findSkillFileEntry } from './skill-file.js';

export interface WalkOptions {
  /** How many directory levels below the root are searched (default 8). */
  readonly maxDepth?: number;
  /** Most directories listed per root (default 100,000). */
  readonly maxDirectories?: number;
  /**
   * Follow symbolically linked directories, never into a loop (default false: a link can lead
   * anywhere, so a skipped link is reported instead).
   */
  readonly followSymlinks?: boolean;
  /** Directory names never entered (default `.git` and `node_modules`). */
  readonly skipNames?: ReadonlySet<string>;
}

export const DEFAULT_WALK_OPTIONS = Object.freeze({
  maxDepth: 8,
  maxDirectories: 100_000,
  followSymlinks: false,
  skipNames: new Set(['.git', 'node_modules']) as ReadonlySet<string>,
});

/** A directory that holds an entry named SKILL.md or skill.md, whatever its type. */
export interface FoundSkill {
  readonly directory: string;
  readonly skillFileName: string;
  readonly skillFileKind: EntryKind;
  /**
   * Tells whether a path relative to the skill directory exists, from the listings taken during
   * the walk; undefined when the walk did not list that folder.
   */
  readonly listed: (relativePath: string) => boolean | undefined;
}

export interface WalkVisitor {
  /** Called after a skill directory and everything below it has been listed. */
  skill(found: FoundSkill): void;
  /** Called for findings about the tree itself (limits, loops, unreadable folders). */
  diagnostic(diagnostic: Diagnostic): void;
}

interface SkillFrame {
  readonly directory: string;
  readonly skillFileName: string;
  readonly skillFileKind: EntryKind;
  readonly listings: Map<string, Set<string>>;
}

function byName(a: DirectoryEntry, b: DirectoryEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function makeListed(frame: SkillFrame): (relativePath: string) => boolean | undefined {
  return (relativePath) => {
    const slash = relativePath.lastIndexOf('/');
    const folder = slash === -1 ? '' : relativePath.slice(0, slash);
    const name = slash === -1 ? relativePath : relativePath.slice(slash + 1);
    const listing = frame.listings.get(folder);
    return listing === undefined ? undefined : listing.has(name);
  };
}

/**
 * Walks a directory tree depth-first in sorted order and reports every skill directory below it
 * (the root included). Bounded in depth and directory count, skips `.git` and `node_modules`,
 * follows linked directories without looping, and reports what it skipped.
 */
/** Reports a walk problem: code, message, path, and whether to report the code only once. */
export type WalkReport = (code: Code, message: string, path: string, once: boolean) => void;

/**
 * The one rule for descending into a child folder, shared by the tree walk and discovery: a link
 * is followed only when allowed, to a directory, and never back into what was already searched;
 * nothing deeper than the depth limit. Returns the child's real path, or undefined to skip it.
 */
export function descendInto(
  fs: SkillFileSystem,
  child: { readonly path: string; readonly real: string; readonly kind: EntryKind },
  parentReal: string,
  depth: number,
  options: {
    readonly followSymlinks: boolean;
    readonly maxDepth: number;
    readonly visitedReal: Set<string>;
  },
  report: WalkReport,
): string | undefined {
  let real = child.real;
  if (child.kind === 'symlink') {
    const target = fs.status(child.path, true);
    if (target === undefined || target.kind !== 'directory') return undefined;
    if (!options.followSymlinks) {
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
    if (isWithinPath(resolved, parentReal) || options.visitedReal.has(resolved)) {
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
  if (depth + 1 > options.maxDepth) {
    report(
      'WALK_DEPTH_LIMIT',
      `Directories deeper than ${options.maxDepth} levels were not searched`,
      child.path,
      true,
    );
    return undefined;
  }
  options.visitedReal.add(real);
  return real;
}

export function walkSkillTree(
  fs: SkillFileSystem,
  root: string,
  visitor: WalkVisitor,
  options: WalkOptions = {},
): { directories: number } {
  const maxDepth = options.maxDepth ?? DEFAULT_WALK_OPTIONS.maxDepth;
  const maxDirectories = options.maxDirectories ?? DEFAULT_WALK_OPTIONS.maxDirectories;
  const followSymlinks = options.followSymlinks ?? DEFAULT_WALK_OPTIONS.followSymlinks;
  const skipNames = options.skipNames ?? DEFAULT_WALK_OPTIONS.skipNames;
  const frames: SkillFrame[] = [];
  const visitedReal = new Set<string>();
  const reported = new Set<Code>();
  let directories = 0;
  let stopped = false;

  const report = (code: Code, message: string, path: string, once: boolean): void => {
    if (once) {
      if (reported.has(code)) return;
      reported.add(code);
    }
    visitor.diagnostic(createDiagnostic(code, 'warning', message, path));
  };

  const visit = (directory: string, realDirectory: string, depth: number): void => {
    if (stopped) return;
    directories += 1;
    if (directories > maxDirectories) {
      stopped = true;
      report(
        'WALK_DIRECTORY_LIMIT',
        `Stopped after listing ${maxDirectories} directories; skills further on were not searched`,
        directory,
        true,
      );
      return;
    }
    const listing = fs.listDirectory(directory);
    if (!listing.ok) {
      report(
        'WALK_UNREADABLE_DIRECTORY',
        `Directory skipped: ${listing.message}`,
        directory,
        false,
      );
      return;
    }
    const entries = [...listing.entries].sort(byName);
    const skillEntry = findSkillFileEntry(entries);
    if (skillEntry !== undefined) {
      frames.push({
        directory,
        skillFileName: skillEntry.name,
        skillFileKind: skillEntry.kind,
        listings: new Map(),
      });
    }
    if (frames.length > 0) {
      const names = new Set<string>();
      for (const entry of entries) names.add(entry.name);
      for (const frame of frames) {
        const folder =
          directory === frame.directory ? '' : directory.slice(frame.directory.length + 1);
        frame.listings.set(folder, names);
      }
    }
    for (const entry of entries) {
      if (entry.name === 'SKILL.md' || entry.name === 'skill.md') continue;
      if (entry.kind !== 'directory' && entry.kind !== 'symlink') continue;
      if (skipNames.has(entry.name)) continue;
      const child = joinPath(directory, entry.name);
      const childReal = descendInto(
        fs,
        { path: child, real: joinPath(realDirectory, entry.name), kind: entry.kind },
        realDirectory,
        depth,
        { followSymlinks, maxDepth, visitedReal },
        report,
      );
      if (childReal === undefined) continue;
      visit(child, childReal, depth + 1);
      if (stopped) break;
    }
    if (skillEntry !== undefined) {
      const frame = frames.pop() as SkillFrame;
      visitor.skill({
        directory: frame.directory,
        skillFileName: frame.skillFileName,
        skillFileKind: frame.skillFileKind,
        listed: makeListed(frame),
      });
    }
  };

  const realRoot = fs.realPath(root) ?? root;
  visitedReal.add(realRoot);
  visit(root, realRoot, 0);
  return { directories };
}
