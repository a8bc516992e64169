import type { Code } from '../codes.js';
import type { DirectoryEntry, EntryKind, FileStatus, SkillFileSystem } from '../deps.js';
import {
  compareDiagnostics,
  createDiagnostic,
  type Diagnostic,
  hasErrors,
} from '../diagnostics.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../format/limits.js';
import { type SkillMetadata, toSkillMetadata } from '../format/load.js';
import { joinPath } from '../paths.js';
import { readSkillFile } from '../skill-files/reader.js';
import { findSkillFileEntry } from '../skill-files/skill-file.js';
import { descendInto } from '../skill-files/walker.js';
import type { SkillSource } from './sources.js';

/** What identifies a file's version: any change to it changes one of these. */
export interface FileIdentity {
  readonly device: number;
  readonly inode: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/**
 * A folder searched for skills (not itself a skill), as last listed: its identity tells whether
 * the listing is still current. Skill directories have a SkillRecord instead.
 */
export interface DirectoryRecord {
  readonly path: string;
  readonly identity: FileIdentity;
  /** Child directories and links to directories, sorted by name. */
  readonly children: ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>;
}

/** One skill directory found in a source, read at the metadata level. */
export interface SkillRecord {
  readonly directory: string;
  /** The directory's real path (links resolved), for de-duplication. */
  readonly realDirectory: string;
  readonly skillFileName: string;
  /** Identity of the skill file when it was read; undefined when it could not be read. */
  readonly identity: FileIdentity | undefined;
  /** Hard links to the skill file (more than one: the same bytes live elsewhere too). */
  readonly links: number;
  /** The normalised metadata, when the skill is usable. */
  readonly metadata: SkillMetadata | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/** The result of searching one source. */
export interface SourceScan {
  readonly source: SkillSource;
  readonly directories: ReadonlyMap<string, DirectoryRecord>;
  readonly skills: ReadonlyMap<string, SkillRecord>;
  /** Findings about the search itself: limits reached, loops, unreadable folders. */
  readonly diagnostics: readonly Diagnostic[];
  /** How many skill files were read (not reused) in this scan. */
  readonly readCount: number;
  /** How many directories were listed (not reused) in this scan. */
  readonly listCount: number;
}

export interface DiscoveryOptions {
  /** How many directory levels below a source root are searched (default 6). */
  readonly maxDepth?: number;
  /** Most folders searched per source, not counting skill directories (default 2000). */
  readonly maxDirectories?: number;
  /** Most skills found per source (default 50,000). */
  readonly maxSkills?: number;
  /** Follow linked directories (never into a loop); default false. */
  readonly followSymlinks?: boolean;
  readonly limits?: Partial<ReadLimits>;
  readonly skipNames?: ReadonlySet<string>;
}

export const DEFAULT_DISCOVERY = Object.freeze({
  maxDepth: 6,
  maxDirectories: 2000,
  maxSkills: 50_000,

  followSymlinks: false,
});

const defaultSkip: ReadonlySet<string> = new Set(['.git', 'node_modules']);

export function identityOf(status: FileStatus): FileIdentity {
  return {
    device: status.device,
    inode: status.inode,
    size: status.size,
    mtimeMs: status.mtimeMs,
    ctimeMs: status.ctimeMs,
  };
}

export function sameIdentity(
  a: FileIdentity | undefined,
  b: FileStatus | FileIdentity | undefined,
): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.inode === b.inode &&
    a.device === b.device &&
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs
  );
}

/**
 * Reads a skill at the metadata level, leniently (the reader): only the head of its SKILL.md,
 * the body is never decoded or kept. The record holds the compact metadata and the diagnostics.
 */
export function readSkillRecord(
  fs: SkillFileSystem,
  directory: string,
  realDirectory: string,
  skillFile: { readonly name: string; readonly kind: EntryKind },
  limits: Partial<ReadLimits> | undefined,
): SkillRecord {
  const reading = readSkillFile(
    fs,
    { directory, skillFileName: skillFile.name, skillFileKind: skillFile.kind },
    { level: 'metadata', mode: 'lenient', ...(limits === undefined ? {} : { limits }) },
  );
  const { parsed, status } = reading;
  return {
    directory,
    realDirectory,
    skillFileName: skillFile.name,
    identity: status === undefined ? undefined : identityOf(status),
    links: status === undefined ? 0 : status.links,
    metadata:
      parsed === undefined || !reading.valid ? undefined : compactMetadata(toSkillMetadata(parsed)),
    diagnostics: reading.diagnostics.length === 0 ? noDiagnostics : reading.diagnostics,
  };
}

/**
 * Searches one source for skill directories and reads each at the metadata level. With the
 * previous scan of the same source (from memory or the index cache), a directory or skill file
 * whose identity (inode, size, modification and change times) is unchanged is not read again.
 */
export function scanSource(
  fs: SkillFileSystem,
  source: SkillSource,
  options: DiscoveryOptions = {},
  previous?: SourceScan,
  /** Ask for the status of every known skill file in one batch (worth it for a long-lived registry). */
  batchStatus = true,
): SourceScan {
  const maxDepth = options.maxDepth ?? DEFAULT_DISCOVERY.maxDepth;
  const maxDirectories = options.maxDirectories ?? DEFAULT_DISCOVERY.maxDirectories;
  const maxSkills = options.maxSkills ?? DEFAULT_DISCOVERY.maxSkills;
  const followSymlinks = options.followSymlinks ?? DEFAULT_DISCOVERY.followSymlinks;
  const skipNames = options.skipNames ?? defaultSkip;
  const directories = new Map<string, DirectoryRecord>();
  const skills = new Map<string, SkillRecord>();
  const diagnostics: Diagnostic[] = [];
  const reported = new Set<Code>();
  const visitedReal = new Set<string>();
  let readCount = 0;
  let listCount = 0;
  let searched = 0;

  let stopped = false;

  const report = (code: Code, message: string, path: string, once: boolean): void => {
    if (once) {
      if (reported.has(code)) return;
      reported.add(code);
    }
    diagnostics.push(createDiagnostic(code, 'warning', message, path));
  };

  const list = (
    path: string,
    identity: FileIdentity,
  ): DirectoryRecord | { readonly skillFile: DirectoryEntry } | undefined => {
    listCount += 1;
    const listing = fs.listDirectory(path);
    if (!listing.ok) {
      report('WALK_UNREADABLE_DIRECTORY', `Directory skipped: ${listing.message}`, path, false);
      return undefined;
    }
    const skillEntry = findSkillFileEntry(listing.entries);
    if (skillEntry !== undefined) return { skillFile: skillEntry };
    const children: Array<{ name: string; kind: EntryKind }> = [];
    for (const entry of listing.entries) {
      if ((entry.kind === 'directory' || entry.kind === 'symlink') && !skipNames.has(entry.name)) {
        children.push({ name: entry.name, kind: entry.kind });
      }
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { path, identity, children };
  };

  const visit = (path: string, realPath: string, depth: number): void => {
    if (stopped) return;
    if (skills.size >= maxSkills) {
      stopped = true;
      report('WALK_SKILL_LIMIT', `Stopped after finding ${maxSkills} skills`, path, true);
      return;
    }
    // A known skill directory is current when its skill file is: one status call, no listing.
    const earlier = previous?.skills.get(path);
    if (earlier !== undefined && earlier.realDirectory === realPath) {
      const current =
        prefetched?.has(earlier) === true
          ? prefetched.get(earlier)
          : fs.status(joinPath(path, earlier.skillFileName), true);
      if (sameIdentity(earlier.identity, current)) {
        skills.set(path, earlier);
        return;
      }
    }
    // The status is taken before listing, so a change made during the listing is seen next time.
    const status = fs.status(path, true);
    if (status === undefined || status.kind !== 'directory') return;
    const identity = identityOf(status);
    const before = previous?.directories.get(path);
    const record =
      before !== undefined && sameIdentity(before.identity, identity)
        ? before
        : list(path, identity);
    if (record === undefined) return;
    if ('skillFile' in record) {
      readCount += 1;
      skills.set(path, readSkillRecord(fs, path, realPath, record.skillFile, options.limits));
      return;
    }
    directories.set(path, record);

    // Only folders searched for skills count against the limit; skill directories are leaves.
    searched += 1;
    if (searched > maxDirectories) {
      stopped = true;
      report(
        'WALK_DIRECTORY_LIMIT',
        `Stopped after searching ${maxDirectories} directories`,
        path,
        true,
      );
      return;
    }
    for (const { name, kind } of record.children) {
      const child = joinPath(path, name);
      const childReal = descendInto(
        fs,
        // Without links on the way, the real path is the path: keep one string for both.
        { path: child, real: realPath === path ? child : joinPath(realPath, name), kind },
        realPath,
        depth,
        { followSymlinks, maxDepth, visitedReal },
        report,
      );
      if (childReal === undefined) continue;
      visit(child, childReal, depth + 1);
      if (stopped) break;
    }
  };

  // With a previous scan, most of the work is one status per known skill file: ask for them
  // all at once, so that the file system can spread the batch over threads.
  let prefetched: Map<SkillRecord, FileStatus | undefined> | undefined;
  if (
    batchStatus &&
    previous !== undefined &&
    fs.statusMany !== undefined &&
    previous.skills.size > 0
  ) {
    const records = [...previous.skills.values()];
    const statuses = fs.statusMany(
      records.map((record) => joinPath(record.directory, record.skillFileName)),
      true,
    );
    prefetched = new Map();
    for (let index = 0; index < records.length; index += 1)
      prefetched.set(records[index] as SkillRecord, statuses[index]);
  }

  const realRoot = fs.realPath(source.root);

  if (realRoot !== undefined) {
    visitedReal.add(realRoot);
    visit(source.root, realRoot, 0);
  }
  return { source, directories, skills, diagnostics, readCount, listCount };
}

export const noDiagnostics: readonly Diagnostic[] = Object.freeze([]);
const noMetadata: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

/**
 * Short strings that recur across skills (licences, metadata keys and common values, file
 * names) are kept once: a registry of ten thousand skills holds one "Apache-2.0", not ten
 * thousand. The table is bounded, so hostile input cannot grow it without limit.
 */
const interned = new Map<string, string>();
const internedMaps = new Map<string, Readonly<Record<string, string>>>();

const MAX_INTERNED = 20_000;

export function intern(value: string): string {
  if (value.length > 64) return value;
  const known = interned.get(value);
  if (known !== undefined) return known;
  if (interned.size < MAX_INTERNED) interned.set(value, value);
  return value;
}

export function compactMetadata(metadata: SkillMetadata | undefined): SkillMetadata | undefined {
  if (metadata === undefined) return undefined;
  const keys = Object.keys(metadata.metadata);
  let entries = noMetadata;
  if (keys.length > 0) {
    // Skills of one collection often carry the same metadata: equal maps are kept once.
    const signature = JSON.stringify(keys.map((key) => [key, metadata.metadata[key]]));
    const known = signature.length <= 512 ? internedMaps.get(signature) : undefined;
    if (known !== undefined) entries = known;
    else {
      const compact: Record<string, string> = Object.create(null);
      for (const key of keys) compact[intern(key)] = intern(metadata.metadata[key] as string);
      entries = Object.freeze(compact);
      if (signature.length <= 512 && internedMaps.size < MAX_INTERNED)
        internedMaps.set(signature, entries);
    }
  }
  return {
    name: metadata.name,
    description: metadata.description,
    ...(metadata.license === undefined ? {} : { license: intern(metadata.license) }),
    ...(metadata.compatibility === undefined
      ? {}
      : { compatibility: intern(metadata.compatibility) }),
    ...(metadata.allowedTools === undefined ? {} : { allowedTools: intern(metadata.allowedTools) }),
    metadata: entries,
  };
}
