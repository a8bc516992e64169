import type { EntryKind, FileStatus, SkillFileSystem } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../format/limits.js';
import { type SkillMetadata, toSkillMetadata } from '../format/load.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { joinPath } from '../paths.js';
import { readingWalk } from '../skill-files/probe.js';
import { readSkillFile } from '../skill-files/reader.js';
import { headBytes } from '../skill-files/skill-file.js';
import {
  type FoundSkill,
  listFolder,
  type WalkOptions,
  walkSkillTree,
} from '../skill-files/walker.js';
import { type FileIdentity, identityOf, sameIdentity } from './identity.js';
import type { SkillSource } from './sources.js';
import { StringTable } from './strings.js';

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

/**
 * Reads a skill at the metadata level, leniently (the reader): only the head of its SKILL.md,
 * the body is never decoded or kept. The record holds the compact metadata and the diagnostics.
 */
export function readSkillRecord(
  fs: SkillFileSystem,
  found: FoundSkill,
  context: {
    readonly limits?: Partial<ReadLimits>;
    readonly yaml?: YamlSource;
    readonly strings: StringTable;
  },
): SkillRecord {
  const reading = readSkillFile(fs, found, {
    level: 'metadata',
    mode: 'lenient',
    ...(context.limits === undefined ? {} : { limits: context.limits }),
    ...(context.yaml === undefined ? {} : { yaml: context.yaml }),
  });
  const { parsed, status } = reading;
  return {
    directory: found.directory,
    realDirectory: found.realDirectory,
    skillFileName: context.strings.intern(found.skillFileName),
    identity: status === undefined ? undefined : identityOf(status),
    links: status === undefined ? 0 : status.links,
    metadata:
      parsed === undefined || !reading.valid
        ? undefined
        : toSkillMetadata(parsed, context.strings.keeping),
    diagnostics: reading.diagnostics.length === 0 ? noDiagnostics : reading.diagnostics,
  };
}

/** What a scan may reuse and share. */
export interface ScanContext {
  /** The previous scan of the same source (from memory or the index cache). */
  readonly previous?: SourceScan;
  /** Ask for the status of every known skill file in one batch (default true; worth it for a long-lived registry). */
  readonly batchStatus?: boolean;
  /** Where recurring strings are kept once (a registry passes its own); default: a new table. */
  readonly strings?: StringTable;
  /** The YAML library or its loader, for a frontmatter the fast scanner cannot read. */
  readonly yaml?: YamlSource;
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
  context: ScanContext = {},
): SourceScan {
  const { previous } = context;
  const strings = context.strings ?? new StringTable();
  const recordContext = {
    strings,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(context.yaml === undefined ? {} : { yaml: context.yaml }),
  };
  const directories = new Map<string, DirectoryRecord>();
  const skills = new Map<string, SkillRecord>();
  const diagnostics: Diagnostic[] = [];
  let readCount = 0;
  let listCount = 0;

  // With a previous scan, most of the work is one status per known skill file: ask for them
  // all at once, so that the file system can spread the batch over threads.
  let prefetched: Map<SkillRecord, FileStatus | undefined> | undefined;
  if (
    context.batchStatus !== false &&
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

  // A skill file is read as the walk finds it (the head, as the reader reads it at the metadata
  // level): one read in place of a status, a listing and the read.
  const limits = { ...DEFAULT_READ_LIMITS, ...options.limits };
  const head = headBytes(limits);
  const reading = readingWalk(
    fs,
    head < limits.maxSkillFileBytes
      ? { maxBytes: head, allowPartial: true }
      : { maxBytes: limits.maxSkillFileBytes },
  );

  walkSkillTree(
    fs,
    source.root,
    {
      skill: (found) => {
        readCount += 1;
        skills.set(found.directory, readSkillRecord(reading.fs, found, recordContext));
      },
      diagnostic: (diagnostic) => diagnostics.push(diagnostic),
      // Without an earlier scan every skill file is read: they may be read ahead.
      ...(previous === undefined ? { children: reading.children } : {}),
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
        const skillFile = reading.skillFile(directory);
        if (skillFile !== undefined) return skillFile;
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

/** The diagnostics of a record without any: one shared empty list, not one per record. */
export const noDiagnostics: readonly Diagnostic[] = Object.freeze([]);
