import type { Code } from '../codes.js';
import type { DirectoryEntry, EntryKind, SkillFileSystem } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { isWithinPath, joinPath } from '../paths.js';

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

/** Picks the skill file among a directory's entries: SKILL.md first, then skill.md. */
export function findSkillFileEntry(entries: readonly DirectoryEntry[]): DirectoryEntry | undefined {
  let lower: DirectoryEntry | undefined;
  for (const entry of entries) {
    if (entry.name === 'SKILL.md') return entry;
    if (entry.name === 'skill.md') lower = entry;
  }
  return lower;
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
      let childReal = joinPath(realDirectory, entry.name);
      if (entry.kind === 'symlink') {
        const target = fs.status(child, true);
        if (target === undefined || target.kind !== 'directory') continue;
        if (!followSymlinks) {
          report(
            'WALK_SYMLINK_SKIPPED',
            'Linked directory not followed; follow links explicitly to search it',
            child,
            false,
          );
          continue;
        }
        const real = fs.realPath(child);
        if (real === undefined) continue;
        if (isWithinPath(real, realDirectory) || visitedReal.has(real)) {
          report(
            'WALK_SYMLINK_LOOP',
            'Linked directory leads back into a directory already searched; skipped',
            child,
            false,
          );
          continue;
        }
        childReal = real;
      }
      if (depth + 1 > maxDepth) {
        report(
          'WALK_DEPTH_LIMIT',
          `Directories deeper than ${maxDepth} levels were not searched`,
          child,
          true,
        );
        continue;
      }
      visitedReal.add(childReal);
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
