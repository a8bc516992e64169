import type { SkillRecord } from './discover.js';
import type { Candidate, RegistryEntry } from './entries.js';
import type { SkillSource } from './sources.js';

/**
 * What a name group was built from, and into. Most names have one skill: that case holds the
 * three objects directly, without arrays, since a registry keeps one group per name.
 */
export type NameGroup =
  | {
      readonly record: SkillRecord;
      readonly source: SkillSource;
      readonly entry: RegistryEntry;
      /** Index of the group's first entry in the entry list. */
      readonly start: number;
    }
  | {
      readonly records: readonly SkillRecord[];
      readonly sources: readonly SkillSource[];
      readonly entries: readonly RegistryEntry[];
      readonly start: number;
    };

/** The registry's entries and the indexes over them. */
export interface EntryTable {
  /** Every copy of every skill, sorted by name, then precedence. */
  readonly entries: RegistryEntry[];
  readonly byAddress: Map<string, RegistryEntry>;
  /** The active copy of each name, in name order. */
  readonly active: Map<string, RegistryEntry>;
  /** The name groups, kept so that a later build can reuse the unchanged ones. */
  readonly groups: Map<string, NameGroup>;
  /** Whether any active name is non-ASCII (then a look-alike check could change). */
  readonly foreignNames: boolean;
}

/** The records a group was built from, in precedence order. */
export function groupRecords(group: NameGroup): readonly SkillRecord[] {
  return 'record' in group ? [group.record] : group.records;
}

/** The source of each of the group's records. */
export function groupSources(group: NameGroup): readonly SkillSource[] {
  return 'source' in group ? [group.source] : group.sources;
}

/** The entries the group was built into. */
export function groupEntries(group: NameGroup): readonly RegistryEntry[] {
  return 'entry' in group ? [group.entry] : group.entries;
}

/** A group of records, their sources and entries, starting at `start` in the entry list. */
export function makeGroup(
  records: readonly SkillRecord[],
  sources: readonly SkillSource[],
  entries: readonly RegistryEntry[],
  start: number,
): NameGroup {
  return records.length === 1 && entries.length === 1
    ? {
        record: records[0] as SkillRecord,
        source: sources[0] as SkillSource,
        entry: entries[0] as RegistryEntry,
        start,
      }
    : { records, sources, entries, start };
}

/** True when a group was built from exactly these candidates, in this order. */
export function sameMembers(group: NameGroup, candidates: readonly Candidate[]): boolean {
  if ('record' in group) {
    const only = candidates[0];
    return (
      candidates.length === 1 &&
      only !== undefined &&
      group.record === only.record &&
      group.source === only.source
    );
  }
  return (
    group.records.length === candidates.length &&
    group.records.every(
      (record, index) =>
        record === candidates[index]?.record && group.sources[index] === candidates[index]?.source,
    )
  );
}

/**
 * A table whose maps are made from its entries when first asked for: a one-shot listing of fifty
 * thousand skills never needs them, and a catalog only the active one.
 */
export function lazyTable(
  entries: RegistryEntry[],
  groups: Map<string, NameGroup>,
  foreignNames: boolean,
): EntryTable {
  let byAddress: Map<string, RegistryEntry> | undefined;
  let active: Map<string, RegistryEntry> | undefined;
  return {
    entries,
    groups,
    foreignNames,
    get byAddress() {
      if (byAddress === undefined) {
        byAddress = new Map();
        for (const entry of entries) byAddress.set(entry.address, entry);
      }
      return byAddress;
    },
    get active() {
      if (active === undefined) {
        active = new Map();
        for (const entry of entries) if (entry.status === 'active') active.set(entry.name, entry);
      }
      return active;
    },
  };
}

/** The table of a registry with no skills. */
export function emptyEntryTable(): EntryTable {
  return {
    entries: [],
    byAddress: new Map(),
    active: new Map(),
    groups: new Map(),
    foreignNames: false,
  };
}
