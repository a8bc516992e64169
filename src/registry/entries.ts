import { compareDiagnostics, createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { skillIdentity } from '../format/identity.js';
import type { SkillMetadata } from '../format/load.js';
import { isAsciiName } from '../format/unicode.js';
import { baseName, joinPath } from '../paths.js';
import type { SkillRecord } from './discover.js';
import {
  type EntryTable,
  groupEntries,
  lazyTable,
  makeGroup,
  type NameGroup,
  sameMembers,
} from './entry-table.js';
import type { FileIdentity } from './identity.js';
import { flagConfusable } from './names.js';
import type { SkillSource, SourceKind } from './sources.js';

/**
 * `active`: usable and the winner for its name. `shadowed`: usable, but a copy with higher
 * precedence has the same name. `skipped`: has errors, never offered. `untrusted`: in a project
 * folder that is not trusted yet, never offered. `disabled`: switched off by the user, never
 * offered.
 */
export type SkillStatus = 'active' | 'shadowed' | 'skipped' | 'untrusted' | 'disabled';

/** Why a skill of this status cannot be activated, or undefined when it can. */
export function unusableReason(status: SkillStatus): string | undefined {
  switch (status) {
    case 'skipped':
      return 'it has errors';
    case 'untrusted':
      return 'its project folder is not trusted';
    case 'disabled':
      return 'it is disabled (skillhost enable NAME turns it back on)';
    default:
      return undefined;
  }
}

export interface RegistryEntry {
  /**
   * The skill's name: its directory's name, NFKC-normalised. The `name` its SKILL.md claims is
   * `metadata.name`; when the two differ the entry has a NAME_DIRECTORY_MISMATCH warning.
   */
  readonly name: string;
  /** `name@source-id`: addresses this copy even when it is shadowed. */
  readonly address: string;
  /**
   * The source as it applies to this skill: its own, except that a skill installed from a source
   * outside the user's control (`RegistryOptions.externalSkills`) has it with trust `untrusted`.
   */
  readonly source: SkillSource;
  readonly directory: string;
  readonly realDirectory: string;
  /** Absolute path of the SKILL.md. */
  readonly skillFile: string;
  readonly status: SkillStatus;
  readonly metadata: SkillMetadata | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /** For a shadowed copy: the address of the active one. */
  readonly shadowedBy?: string;
  /** For a shadowed copy: true when its content equals the active copy's (collapsed, not a conflict). */
  readonly identical?: boolean;
  readonly identity: FileIdentity | undefined;
  /** Hard links to the skill file. */
  readonly links: number;
}

/** A skill found in a source: what the collision rules work on. */
export interface Candidate {
  readonly record: SkillRecord;
  readonly source: SkillSource;
}

/** A copy of a skill, as the identical-copies question sees it. */
export interface SkillCopy {
  readonly directory: string;
  readonly skillFile: string;
}

export interface EntryRules {
  /** The registry's sources in order: among sources of one kind, the earlier wins. */
  readonly sources: readonly SkillSource[];
  /** Kinds of source, highest precedence first. */
  readonly precedence: readonly SourceKind[];
  /**
   * Whether a shadowed copy has the same content as the winner (asked only when their real
   * directories differ; the registry compares content hashes).
   */
  readonly identical: (winner: SkillCopy, copy: SkillCopy) => boolean;
  /** Names the user switched off: every copy is `disabled`. */
  readonly disabled?: (name: string) => boolean;
  /** Skill directories installed from a source outside the user's control: untrusted. */
  readonly external?: (directory: string) => boolean;
}

/** The rules one name group is built by. */
export type GroupRules = Pick<EntryRules, 'identical' | 'disabled' | 'external'>;

const untrustedViews = new WeakMap<SkillSource, SkillSource>();
const addressSuffixes = new WeakMap<SkillSource, string>();

/**
 * `name@source-id`: the suffix is made once a source, so that each address is one join of two
 * strings (a registry keeps one for every skill).
 */
function addressOf(name: string, source: SkillSource): string {
  let suffix = addressSuffixes.get(source);
  if (suffix === undefined) {
    suffix = `@${source.id}`;
    addressSuffixes.set(source, suffix);
  }
  return name + suffix;
}

/** The source as an externally installed skill of it sees it: the same, but untrusted. */
function untrustedView(source: SkillSource): SkillSource {
  if (source.trust === 'untrusted') return source;
  let view = untrustedViews.get(source);
  if (view === undefined) {
    view = { ...source, trust: 'untrusted' };
    untrustedViews.set(source, view);
  }
  return view;
}

/** A candidate with what sorting needs: its name, its source's rank, and a name mismatch. */
export interface RankedCandidate extends Candidate {
  readonly name: string;
  readonly rank: number;
  /** 1 when the directory's name is not in normal form, or the name its SKILL.md claims differs. */
  readonly mismatch: number;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The name a record is known by: its directory's name (NFKC-normalised), never the name its
 * SKILL.md claims, so that no file can take, shadow or answer for another skill's name.
 */
export function recordName(record: SkillRecord): string {
  return skillIdentity(baseName(record.directory));
}

/** Ranks sources for the collision rules: lower wins (kind precedence, then source order). */
export function sourceRanker(rules: EntryRules): (source: SkillSource) => number {
  const ranks = new Map<SkillSource, number>();
  return (source) => {
    let rank = ranks.get(source);
    if (rank === undefined) {
      const kindRank = rules.precedence.indexOf(source.kind);
      const order = rules.sources.indexOf(source);
      rank = (kindRank === -1 ? rules.precedence.length : kindRank) * 10_000 + order;
      ranks.set(source, rank);
    }
    return rank;
  };
}

/** A candidate ready for sorting within its name group. */
export function rankCandidate(
  candidate: Candidate,
  name: string,
  rank: (source: SkillSource) => number,
): RankedCandidate {
  return {
    record: candidate.record,
    source: candidate.source,
    name,
    rank: rank(candidate.source),
    mismatch:
      baseName(candidate.record.directory) === name &&
      (candidate.record.metadata === undefined || candidate.record.metadata.name === name)
        ? 0
        : 1,
  };
}

/** An entry, in one of two shapes (a shadowed copy's, or any other's), built without spreads. */
function makeEntry(
  record: SkillRecord,
  name: string,
  address: string,
  source: SkillSource,
  skillFile: string,
  status: SkillStatus,
  found: readonly Diagnostic[],
  shadowedBy: string | undefined,
  identical: boolean | undefined,
): RegistryEntry {
  const diagnostics = found.length > 1 ? [...found].sort(compareDiagnostics) : found;
  if (shadowedBy === undefined && identical === undefined) {
    return {
      name,
      address,
      source,
      directory: record.directory,
      realDirectory: record.realDirectory,
      skillFile,
      status,
      metadata: record.metadata,
      diagnostics,
      identity: record.identity,
      links: record.links,
    };
  }
  return {
    name,
    address,
    source,
    directory: record.directory,
    realDirectory: record.realDirectory,
    skillFile,
    status,
    metadata: record.metadata,
    diagnostics,
    ...(shadowedBy === undefined ? {} : { shadowedBy }),
    ...(identical === undefined ? {} : { identical }),
    identity: record.identity,
    links: record.links,
  };
}

/**
 * The entry of a name only one skill has (nearly every name): what `buildGroup` makes of a
 * group of one, without the group.
 */
function buildSingle(candidate: Candidate, name: string, rules: GroupRules): RegistryEntry {
  const { record } = candidate;
  const source =
    rules.external?.(record.directory) === true
      ? untrustedView(candidate.source)
      : candidate.source;
  const status: SkillStatus =
    record.metadata === undefined
      ? 'skipped'
      : !source.enabled
        ? 'untrusted'
        : rules.disabled?.(name) === true
          ? 'disabled'
          : 'active';
  return makeEntry(
    record,
    name,
    addressOf(name, source),
    source,
    joinPath(record.directory, record.skillFileName),
    status,
    record.diagnostics,
    undefined,
    undefined,
  );
}

/**
 * The entries of one name group, its candidates sorted by precedence: the first usable copy of
 * an enabled source is active, later usable copies are shadowed (collapsed into it when
 * identical), unusable ones skipped, those of a disabled source untrusted, those of a name the
 * user switched off disabled.
 */
export function buildGroup(group: readonly RankedCandidate[], rules: GroupRules): RegistryEntry[] {
  const { identical } = rules;
  const disabled =
    group.length > 0 && rules.disabled?.((group[0] as RankedCandidate).name) === true;
  const entries: RegistryEntry[] = [];
  // Nearly every name has one copy: then there is no address to tell apart, no copy to compare.
  const several = group.length > 1;
  const addresses = several ? new Set<string>() : undefined;
  const seenReal = several ? new Set<string>() : undefined;
  let winner: RegistryEntry | undefined;
  for (const { record, source: found, name } of group) {
    const source = rules.external?.(record.directory) === true ? untrustedView(found) : found;
    // Copied only when a finding is added to them.
    let diagnostics = record.diagnostics;
    let address = addressOf(name, source);
    if (addresses !== undefined) {
      for (let index = 2; addresses.has(address); index += 1)
        address = `${name}@${source.id}#${index}`;
      addresses.add(address);
    }
    const skillFile = joinPath(record.directory, record.skillFileName);
    let status: SkillStatus;
    let shadowedBy: string | undefined;
    let same: boolean | undefined;
    if (record.metadata === undefined) status = 'skipped';
    else if (!source.enabled) status = 'untrusted';
    else if (disabled) status = 'disabled';
    else if (winner === undefined) status = 'active';
    else {
      status = 'shadowed';
      shadowedBy = winner.address;
      same =
        seenReal?.has(record.realDirectory) === true ||
        identical(winner, { directory: record.directory, skillFile });
      diagnostics = [
        ...diagnostics,
        same
          ? createDiagnostic(
              'SKILL_DUPLICATE',
              'info',
              `Identical copy of ${winner.address} (${winner.directory}); collapsed into it`,
              skillFile,
            )
          : createDiagnostic(
              'SKILL_SHADOWED',
              'warning',
              `Shadowed by ${winner.address} (${winner.directory}), which takes precedence`,
              skillFile,
            ),
      ];
    }
    const entry = makeEntry(
      record,
      name,
      address,
      source,
      skillFile,
      status,
      diagnostics,
      shadowedBy,
      same,
    );
    entries.push(entry);
    if (status === 'active') winner = entry;
    seenReal?.add(record.realDirectory);
  }
  return entries;
}

/**
 * The registry's entries from the skills found in its sources (pure: no file system). Skills are
 * grouped by name (their directory's name); within a name, the source kind's precedence decides,
 * then the source's order, then a copy whose SKILL.md claims that same name, then the directory.
 * Look-alike active names get a warning. A group of `previous` whose members are the very same objects keeps its entries, so
 * a rebuild after one change rebuilds one group, not ten thousand.
 */
export function resolveEntries(
  candidates: Iterable<Candidate>,
  rules: EntryRules,
  previous: ReadonlyMap<string, NameGroup> = new Map(),
  /** Keep the name groups for later rebuilds (a one-shot registry does not). */
  keepGroups = true,
): EntryTable {
  const rank = sourceRanker(rules);
  // Grouped by name with one sort of their places, not a map of candidates: a registry of fifty
  // thousand skills holds no map and no candidate object for each while its entries are made.
  // The sort keeps the order of a name's candidates (ties by place), as the groups did.
  const records: SkillRecord[] = [];
  const sources: SkillSource[] = [];
  const names: string[] = [];
  for (const { record, source } of candidates) {
    records.push(record);
    sources.push(source);
    names.push(recordName(record));
  }
  const order = Array.from({ length: names.length }, (_, place) => place);
  order.sort((a, b) => byText(names[a] as string, names[b] as string));
  const candidateAt = (place: number): Candidate => ({
    record: records[place] as SkillRecord,
    source: sources[place] as SkillSource,
  });
  const entries: RegistryEntry[] = [];
  const built = new Map<string, NameGroup>();
  let foreignNames = false;
  const add = (entry: RegistryEntry) => {
    entries.push(entry);
    if (entry.status === 'active' && !foreignNames && !isAsciiName(entry.name)) foreignNames = true;
  };
  for (let at = 0; at < order.length; ) {
    const name = names[order[at] as number] as string;
    let end = at + 1;
    while (end < order.length && names[order[end] as number] === name) end += 1;
    const members =
      end - at === 1
        ? candidateAt(order[at] as number)
        : order.slice(at, end).map((place) => candidateAt(place));
    at = end;
    const before = previous.get(name);
    const start = entries.length;
    let made: readonly RegistryEntry[] | RegistryEntry;
    if (!Array.isArray(members)) {
      if (before !== undefined && sameMembers(before, [members])) {
        made = groupEntries(before);
        if (keepGroups) built.set(name, before.start === start ? before : { ...before, start });
      } else {
        made = buildSingle(members, name, rules);
        if (keepGroups)
          built.set(name, { record: members.record, source: members.source, entry: made, start });
      }
    } else {
      const group = members.map((candidate) => rankCandidate(candidate, name, rank));
      group.sort(
        (a, b) =>
          a.rank - b.rank ||
          a.mismatch - b.mismatch ||
          byText(a.record.directory, b.record.directory),
      );
      if (before !== undefined && sameMembers(before, group)) {
        made = groupEntries(before);
        if (keepGroups) built.set(name, before.start === start ? before : { ...before, start });
      } else {
        made = buildGroup(group, rules);
        if (keepGroups) {
          built.set(
            name,
            makeGroup(
              group.map((candidate) => candidate.record),
              group.map((candidate) => candidate.source),
              made,
              start,
            ),
          );
        }
      }
    }
    if (Array.isArray(made)) for (const entry of made as readonly RegistryEntry[]) add(entry);
    else add(made as RegistryEntry);
  }
  const table = lazyTable(entries, built, foreignNames);
  if (foreignNames) flagConfusable(table.active, entries, table.byAddress);
  return table;
}
