import type { CacheStore, SkillFileSystem } from '../deps.js';
import { isAsciiName } from '../format/unicode.js';
import type { YamlSource } from '../format/yaml-engine.js';
import {
  type DiscoveryOptions,
  type SkillRecord,
  type SourceScan,
  scanSource,
} from './discover.js';
import {
  buildGroup,
  type EntryRules,
  type RegistryEntry,
  rankCandidate,
  recordName,
  sourceRanker,
} from './entries.js';
import {
  type EntryTable,
  groupEntries,
  groupRecords,
  groupSources,
  makeGroup,
  type NameGroup,
} from './entry-table.js';
import { sameIdentity } from './identity.js';
import { decodeScan, indexKey } from './index-cache.js';
import type { SkillSource } from './sources.js';
import type { StringTable } from './strings.js';

export interface RegistryChanges {
  readonly added: readonly RegistryEntry[];
  readonly removed: readonly RegistryEntry[];
  readonly changed: readonly RegistryEntry[];
}

export interface RegistryStats {
  /** Skill files read during the last scan or refresh. */
  readonly read: number;
  /** Skill files whose unchanged identity let the scan reuse what it knew. */
  readonly reused: number;
  /** Sources whose index came from the persistent cache. */
  readonly cachedSources: number;
}

/** A skill record replaced by a fresh read of the same directory. */
export interface TouchedRecord {
  readonly before: SkillRecord;
  readonly after: SkillRecord;
}

/** What scanning every source again found, and how much of the entries it invalidates. */
export interface Rescan {
  readonly scans: SourceScan[];
  readonly stats: RegistryStats;
  /** Ids of the sources whose scan differs from the one before (their index needs saving). */
  readonly changedSources: readonly string[];
  /** Some source read, listed or lost something. */
  readonly anyChange: boolean;
  /** Skill directories appeared or went away: the entries must be rebuilt, not patched. */
  readonly structural: boolean;
  /** Skill records re-read in place (only collected while the change is not structural). */
  readonly touched: readonly TouchedRecord[];
}

export interface RescanInputs {
  readonly fs: SkillFileSystem;
  readonly sources: readonly SkillSource[];
  readonly discovery: DiscoveryOptions;
  readonly strings: StringTable;
  /** Version string mixed into index keys. */
  readonly version: string;
  /** The index cache, read for a source without a scan in memory (on open). */
  readonly cache?: CacheStore;
  /** Ask for the statuses of known skill files in one batch even on a start from the cache. */
  readonly batchFromCache: boolean;
  /** Take a source's cached index as its scan, checking no file (`indexFirst`). */
  readonly trustCache?: boolean;
  readonly yaml?: YamlSource;
}

/**
 * Scans every source again, reusing what is unchanged since `previous` (or, with a cache, since
 * the cached index), and tells how much changed.
 */
export function rescanSources(previous: readonly SourceScan[], inputs: RescanInputs): Rescan {
  const { fs, cache, discovery, strings } = inputs;
  const before = new Map(previous.map((scan) => [scan.source.id, scan]));
  let read = 0;
  let reused = 0;
  let cachedSources = 0;
  let structural = false;
  const changedSources: string[] = [];
  const touched: TouchedRecord[] = [];
  const scans = inputs.sources.map((source) => {
    let earlier = before.get(source.id);
    const fromMemory = earlier !== undefined;
    if (earlier === undefined && cache !== undefined) {
      const key = indexKey(source, discovery, inputs.version);
      // Line by line where the store can: a large index never becomes one string.
      const text = cache.loadLines === undefined ? cache.load(key) : cache.loadLines(key);
      earlier = text === undefined ? undefined : decodeScan(text, source, key, strings);
      if (earlier !== undefined) cachedSources += 1;
      if (earlier !== undefined && inputs.trustCache === true) {
        reused += earlier.skills.size;
        return earlier;
      }
    }
    // A batch over a helper thread pays off for a registry that lives on and refreshes; a
    // one-shot start from the index cache is better off without the thread's memory.
    const scan = scanSource(fs, source, discovery, {
      ...(earlier === undefined ? {} : { previous: earlier }),
      batchStatus: fromMemory || inputs.batchFromCache,
      strings,
      ...(inputs.yaml === undefined ? {} : { yaml: inputs.yaml }),
    });
    read += scan.readCount;
    reused += scan.skills.size - scan.readCount;
    const changed =
      earlier === undefined ||
      scan.readCount > 0 ||
      scan.listCount > 0 ||
      scan.skills.size !== earlier.skills.size ||
      scan.directories.size !== earlier.directories.size;
    if (!changed) return scan;
    changedSources.push(source.id);
    if (earlier === undefined || scan.skills.size !== earlier.skills.size) structural = true;
    else if (!structural) {
      for (const [directory, record] of scan.skills) {
        const old = earlier.skills.get(directory);
        if (old === undefined) {
          structural = true;
          break;
        }
        if (old !== record) touched.push({ before: old, after: record });
      }
    }
    return scan;
  });
  return {
    scans,
    stats: { read, reused, cachedSources },
    changedSources,
    anyChange: changedSources.length > 0,
    structural,
    touched,
  };
}

/** The one rule for "this entry changed": what a listener of refresh or watch must hear about. */
export function entryChanged(previous: RegistryEntry, next: RegistryEntry): boolean {
  return (
    previous.status !== next.status ||
    previous.directory !== next.directory ||
    !sameIdentity(previous.identity, next.identity) ||
    previous.shadowedBy !== next.shadowedBy ||
    previous.metadata !== next.metadata
  );
}

/** What was added, removed and changed between two lists of entries (keyed by address). */
export function diffEntries(
  before: readonly RegistryEntry[],
  after: readonly RegistryEntry[],
  beforeByAddress: ReadonlyMap<string, RegistryEntry> = new Map(
    before.map((entry) => [entry.address, entry]),
  ),
  afterByAddress: ReadonlyMap<string, RegistryEntry> = new Map(
    after.map((entry) => [entry.address, entry]),
  ),
): RegistryChanges {
  const added: RegistryEntry[] = [];
  const changed: RegistryEntry[] = [];
  for (const entry of after) {
    const previous = beforeByAddress.get(entry.address);
    // Entries of untouched groups are the same objects: nothing to compare.
    if (previous === entry) continue;
    if (previous === undefined) added.push(entry);
    else if (entryChanged(previous, entry)) changed.push(entry);
  }
  const removed = before.filter((entry) => !afterByAddress.has(entry.address));
  return { added, removed, changed };
}

/**
 * Rebuilds only the name groups of skill files that changed without changing their name, in
 * place (the table's list and maps are updated). Returns what changed, or undefined when a patch
 * cannot be right (a name changed, or a look-alike check could): then rebuild everything.
 */
export function patchEntries(
  table: EntryTable,
  touched: readonly TouchedRecord[],
  rules: EntryRules,
): { readonly table: EntryTable; readonly changes: RegistryChanges } | undefined {
  if (table.foreignNames) return undefined;
  for (const { before, after } of touched) {
    const name = recordName(after);
    if (name !== recordName(before) || !isAsciiName(name) || !table.groups.has(name))
      return undefined;
  }
  const rank = sourceRanker(rules);
  const replaced = new Map(touched.map(({ before, after }) => [before, after]));
  const entries = table.entries.slice();
  const { byAddress, groups } = table;
  let active = table.active;
  const previousEntries: RegistryEntry[] = [];
  const rebuiltEntries: RegistryEntry[] = [];
  let activeNamesChanged = false;
  for (const name of new Set(touched.map(({ after }) => recordName(after)))) {
    const group = groups.get(name) as NameGroup;
    const oldEntries = groupEntries(group);
    const sources = groupSources(group);
    const records = groupRecords(group).map((record) => replaced.get(record) ?? record);
    const candidates = records.map((record, index) =>
      rankCandidate({ record, source: sources[index] as SkillSource }, name, rank),
    );
    const rebuilt = buildGroup(candidates, rules);
    const hadActive = oldEntries.some((entry) => entry.status === 'active');
    if (hadActive !== rebuilt.some((entry) => entry.status === 'active')) activeNamesChanged = true;
    for (let index = 0; index < rebuilt.length; index += 1)
      entries[group.start + index] = rebuilt[index] as RegistryEntry;
    for (const entry of oldEntries) byAddress.delete(entry.address);
    for (const entry of rebuilt) {
      byAddress.set(entry.address, entry);
      // Setting an existing key keeps its place, so the active map stays in name order.
      if (entry.status === 'active') active.set(entry.name, entry);
    }
    groups.set(name, makeGroup(records, sources, rebuilt, group.start));
    previousEntries.push(...oldEntries);
    rebuiltEntries.push(...rebuilt);
  }
  if (activeNamesChanged) {
    active = new Map(
      entries.filter((entry) => entry.status === 'active').map((entry) => [entry.name, entry]),
    );
  }
  return {
    table: { entries, byAddress, active, groups, foreignNames: false },
    changes: diffEntries(previousEntries, rebuiltEntries),
  };
}
