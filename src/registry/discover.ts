import type { EntryKind, FileStatus, SkillFileSystem } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import type { ReadLimits } from '../format/limits.js';
import { type SkillMetadata, toSkillMetadata } from '../format/load.js';
import { joinPath } from '../paths.js';
import { readSkillFile } from '../skill-files/reader.js';
import { listFolder, type WalkOptions, walkSkillTree } from '../skill-files/walker.js';
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

/** Where and how far discovery searches (the walker's limits), and the read limits. */
export interface DiscoveryOptions extends WalkOptions {
  readonly limits?: Partial<ReadLimits>;
}

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
 * Searches one source for skill directories (the walker) and reads each at the metadata level
 * (the reader). With the previous scan of the same source (from memory or the index cache), a
 * folder or skill file whose identity (inode, size, modification and change times) is unchanged
 * is not listed or read again: discovery plugs that reuse into the walker's hooks.
 */
export function scanSource(
  fs: SkillFileSystem,
  source: SkillSource,
  options: DiscoveryOptions = {},
  previous?: SourceScan,
  /** Ask for the status of every known skill file in one batch (worth it for a long-lived registry). */
  batchStatus = true,
): SourceScan {
  const directories = new Map<string, DirectoryRecord>();
  const skills = new Map<string, SkillRecord>();
  const diagnostics: Diagnostic[] = [];
  let readCount = 0;
  let listCount = 0;

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

  walkSkillTree(
    fs,
    source.root,
    {
      skill: (found) => {
        readCount += 1;
        skills.set(
          found.directory,
          readSkillRecord(
            fs,
            found.directory,
            found.realDirectory,
            { name: found.skillFileName, kind: found.skillFileKind },
            options.limits,
          ),
        );
      },
      diagnostic: (diagnostic) => diagnostics.push(diagnostic),
      // A known skill directory is current when its skill file is: one status call, no listing.
      knownSkill: (directory, realDirectory) => {
        const earlier = previous?.skills.get(directory);
        if (earlier === undefined || earlier.realDirectory !== realDirectory) return false;
        const current =
          prefetched?.has(earlier) === true
            ? prefetched.get(earlier)
            : fs.status(joinPath(directory, earlier.skillFileName), true);
        if (!sameIdentity(earlier.identity, current)) return false;
        skills.set(directory, earlier);
        return true;
      },
      // The status is taken before listing, so a change made during the listing is seen next time.
      list: (directory, skipNames) => {
        const status = fs.status(directory, true);
        if (status === undefined || status.kind !== 'directory') return undefined;
        const identity = identityOf(status);
        const before = previous?.directories.get(directory);
        if (before !== undefined && sameIdentity(before.identity, identity)) {
          directories.set(directory, before);
          return before;
        }
        listCount += 1;
        const listing = listFolder(fs, directory, skipNames);
        if ('children' in listing)
          directories.set(directory, { path: directory, identity, children: listing.children });
        return listing;
      },
    },
    options,
  );
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
