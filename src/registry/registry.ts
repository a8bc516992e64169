import type {
  CacheStore,
  ContentHasher,
  DirectoryWatcher,
  SkillFileSystem,
  WatchHandle,
} from '../deps.js';
import { compareDiagnostics, createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { DEFAULT_READ_LIMITS } from '../format/limits.js';
import type { SkillMetadata } from '../format/load.js';
import { isAsciiName } from '../format/unicode.js';
import { baseName, joinPath } from '../paths.js';
import { WALK_DEFAULTS } from '../skill-files/walker.js';
import {
  type DiscoveryOptions,
  type SkillRecord,
  type SourceScan,
  scanSource,
} from './discover.js';
import { type FileIdentity, sameIdentity } from './identity.js';
import { decodeScan, encodeScan, indexKey } from './index-cache.js';
import { nameSkeleton } from './names.js';
import { DEFAULT_PRECEDENCE, type SkillSource, type SourceKind } from './sources.js';
import { StringTable } from './strings.js';

/**
 * `active`: usable and the winner for its name. `shadowed`: usable, but a copy with higher
 * precedence has the same name. `skipped`: has errors, never offered. `untrusted`: in a project
 * folder that is not trusted yet, never offered.
 */
export type SkillStatus = 'active' | 'shadowed' | 'skipped' | 'untrusted';

export interface RegistryEntry {
  /** The skill's name, or its directory name when the name cannot be read. */
  readonly name: string;
  /** `name@source-id`: addresses this copy even when it is shadowed. */
  readonly address: string;
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

export interface RegistryChanges {
  readonly added: readonly RegistryEntry[];
  readonly removed: readonly RegistryEntry[];
  readonly changed: readonly RegistryEntry[];
}

export interface RegistryOptions {
  readonly fs: SkillFileSystem;
  readonly sources: readonly SkillSource[];
  /** Which kinds of source win a name collision, highest first. */
  readonly precedence?: readonly SourceKind[];
  readonly discovery?: DiscoveryOptions;
  /** The persistent index cache (optional). */
  readonly cache?: CacheStore;
  /** Digest used to recognise identical copies (optional; without it, only the same real directory counts). */
  readonly hash?: ContentHasher;
  /** Version string mixed into cache keys, so a new release never reads an old index. */
  readonly version?: string;
  /**
   * Keep the scans after building the entries (default true), so that `refresh` reuses them.
   * A one-shot caller saves memory with false; its `refresh` then scans everything again.
   */
  readonly keepScans?: boolean;
}

export interface RegistryStats {
  /** Skill files read during the last scan or refresh. */
  readonly read: number;
  /** Skill files whose unchanged identity let the scan reuse what it knew. */
  readonly reused: number;
  /** Sources whose index came from the persistent cache. */
  readonly cachedSources: number;
}

interface Candidate {
  readonly record: SkillRecord;
  readonly source: SkillSource;
  readonly name: string;
  readonly rank: number;
  /** 1 when the directory name differs from the skill name. */
  readonly mismatch: number;
}

/**
 * What a name group was built from, and into. Most names have one skill: that case holds the
 * three objects directly, without arrays, since a registry keeps one group per name.
 */
type BuiltGroup =
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

function groupRecords(group: BuiltGroup): readonly SkillRecord[] {
  return 'record' in group ? [group.record] : group.records;
}

function groupSources(group: BuiltGroup): readonly SkillSource[] {
  return 'source' in group ? [group.source] : group.sources;
}

function groupEntries(group: BuiltGroup): readonly RegistryEntry[] {
  return 'entry' in group ? [group.entry] : group.entries;
}

function makeGroup(
  records: readonly SkillRecord[],
  sources: readonly SkillSource[],
  entries: readonly RegistryEntry[],
  start: number,
): BuiltGroup {
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
function sameMembers(group: BuiltGroup, candidates: readonly Candidate[]): boolean {
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

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The skills of a set of sources: discovered at the metadata level, checked leniently,
 * collisions resolved by precedence with every shadowed copy kept addressable.
 */
export class SkillRegistry {
  readonly #options: RegistryOptions;
  readonly #precedence: readonly SourceKind[];
  #scans: SourceScan[] = [];
  #entries: RegistryEntry[] = [];
  #byAddress = new Map<string, RegistryEntry>();
  #active = new Map<string, RegistryEntry>();
  #groups = new Map<string, BuiltGroup>();
  readonly #unsaved = new Set<string>();
  /** Whether any active name is non-ASCII (then look-alike checks need a full build). */
  #foreignNames = false;
  #stats: RegistryStats = { read: 0, reused: 0, cachedSources: 0 };
  readonly #hashes = new Map<string, { identity: FileIdentity; hash: string | undefined }>();
  /** Recurring strings of this registry's records, kept once. */
  readonly #strings = new StringTable();

  private constructor(options: RegistryOptions) {
    this.#options = options;
    this.#precedence = options.precedence ?? DEFAULT_PRECEDENCE;
  }

  /** Discovers the skills of every source (using the index cache when given). */
  static open(options: RegistryOptions): SkillRegistry {
    const registry = new SkillRegistry(options);
    registry.#scanAll(true);
    return registry;
  }

  /** Every copy of every skill, sorted by name, then precedence. */
  get entries(): readonly RegistryEntry[] {
    return this.#entries;
  }

  /** Findings about the sources themselves (limits reached, loops, unreadable folders). */
  get diagnostics(): readonly Diagnostic[] {
    return this.#scans.flatMap((scan) => scan.diagnostics);
  }

  get sources(): readonly SkillSource[] {
    return this.#options.sources;
  }

  get stats(): RegistryStats {
    return this.#stats;
  }

  /** The skills offered to a model: one per name, sorted by name. */
  active(): RegistryEntry[] {
    return [...this.#active.values()];
  }

  /**
   * Looks a skill up by name (the active copy) or by address (`name@source-id`, any copy).
   * Names are only ever keys into the registry, never paths.
   */
  resolve(nameOrAddress: string): RegistryEntry | undefined {
    return nameOrAddress.includes('@')
      ? this.#byAddress.get(nameOrAddress)
      : this.#active.get(nameOrAddress);
  }

  /**
   * Re-reads only what changed since the last scan (skill files by inode, size and times;
   * folders by their own identity) and reports the entries added, removed and changed.
   */
  refresh(): RegistryChanges {
    const previousEntries = this.#entries;
    const previousByAddress = this.#byAddress;
    const patched = this.#scanAll(false);
    if (patched !== undefined) return patched;
    if (this.#entries === previousEntries) return { added: [], removed: [], changed: [] };
    const added: RegistryEntry[] = [];
    const changed: RegistryEntry[] = [];
    for (const entry of this.#entries) {
      const previous = previousByAddress.get(entry.address);
      // Entries of untouched groups are the same objects: nothing to compare.
      if (previous === entry) continue;
      if (previous === undefined) added.push(entry);
      else if (
        previous.status !== entry.status ||
        previous.directory !== entry.directory ||
        !sameIdentity(previous.identity, entry.identity) ||
        previous.shadowedBy !== entry.shadowedBy ||
        previous.metadata !== entry.metadata
      ) {
        changed.push(entry);
      }
    }
    const removed = previousEntries.filter((entry) => !this.#byAddress.has(entry.address));
    return { added, removed, changed };
  }

  /**
   * Watches the sources and calls `listener` with what was added, changed or removed, after
   * changes settle for `debounceMs` (default 100). Only roots that exist are watched.
   */
  watch(
    watcher: DirectoryWatcher,
    listener: (changes: RegistryChanges) => void,
    options: {
      readonly debounceMs?: number;
      readonly setTimer?: (callback: () => void, ms: number) => unknown;
      readonly clearTimer?: (timer: unknown) => void;
    } = {},
  ): WatchHandle {
    const discovery = this.#options.discovery ?? {};
    const roots = this.#options.sources
      .map((source) => source.root)
      .filter((root) => this.#options.fs.status(root, true)?.kind === 'directory');
    const setTimer =
      options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
    const clearTimer =
      options.clearTimer ??
      ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));
    let timer: unknown;
    let closed = false;
    const settle = () => {
      timer = undefined;
      if (closed) return;
      const changes = this.refresh();
      if (changes.added.length + changes.removed.length + changes.changed.length > 0)
        listener(changes);
    };
    const handle = watcher(
      roots,
      () => {
        if (closed) return;
        if (timer !== undefined) clearTimer(timer);
        timer = setTimer(settle, options.debounceMs ?? 100);
      },
      {
        depth: (discovery.maxDepth ?? WALK_DEFAULTS.maxDepth) + 1,
        followSymlinks: discovery.followSymlinks ?? WALK_DEFAULTS.followSymlinks,
      },
    );
    return {
      close: async () => {
        closed = true;
        if (timer !== undefined) clearTimer(timer);
        await handle.close();
      },
    };
  }

  /**
   * The digest of a skill's SKILL.md (undefined without a hasher or when it cannot be read),
   * remembered per file identity.
   */
  contentHash(entry: RegistryEntry): string | undefined {
    const hasher = this.#options.hash;
    if (hasher === undefined) return undefined;
    const status = this.#options.fs.status(entry.skillFile, true);
    const known = this.#hashes.get(entry.skillFile);
    if (known !== undefined && sameIdentity(known.identity, status)) return known.hash;
    const limits = { ...DEFAULT_READ_LIMITS, ...this.#options.discovery?.limits };
    const read = this.#options.fs.readFileWithin(entry.directory, baseName(entry.skillFile), {
      maxBytes: limits.maxSkillFileBytes,
    });
    const hash = read.ok ? hasher(read.bytes) : undefined;
    if (read.ok) {
      this.#hashes.set(entry.skillFile, {
        identity: {
          device: read.status.device,
          inode: read.status.inode,
          size: read.status.size,
          mtimeMs: read.status.mtimeMs,
          ctimeMs: read.status.ctimeMs,
        },
        hash,
      });
    }
    return hash;
  }

  /** Writes the index of every source whose scan changed since it was last written. */
  saveIndex(): void {
    const { cache, discovery = {} } = this.#options;
    if (cache === undefined) return;
    for (const scan of this.#scans) {
      if (!this.#unsaved.has(scan.source.id)) continue;
      const key = indexKey(scan.source, discovery, this.#options.version ?? 'dev');
      cache.save(key, encodeScan(scan, key));
    }
    this.#unsaved.clear();
  }

  /**
   * Scans every source again (reusing what is unchanged) and brings the entries up to date.
   * When only some skill files changed and their names did not, only their name groups are
   * rebuilt, and the changes are returned; otherwise everything is rebuilt (undefined).
   */
  #scanAll(useCache: boolean): RegistryChanges | undefined {
    const { fs, cache, discovery = {} } = this.#options;
    const version = this.#options.version ?? 'dev';
    const previous = new Map(this.#scans.map((scan) => [scan.source.id, scan]));
    let read = 0;
    let reused = 0;
    let cachedSources = 0;
    let anyChange = false;
    let structural = false;
    const touched: Array<{ readonly before: SkillRecord; readonly after: SkillRecord }> = [];
    this.#scans = this.#options.sources.map((source) => {
      const key = indexKey(source, discovery, version);
      let before = previous.get(source.id);
      if (before === undefined && useCache && cache !== undefined) {
        const text = cache.load(key);
        before = text === undefined ? undefined : decodeScan(text, source, key, this.#strings);
        if (before !== undefined) cachedSources += 1;
      }
      // A batch over a helper thread pays off for a registry that lives on and refreshes; a
      // one-shot start from the index cache is better off without the thread's memory.
      const fromMemory = previous.has(source.id);
      const scan = scanSource(fs, source, discovery, {
        ...(before === undefined ? {} : { previous: before }),
        batchStatus: fromMemory || this.#options.keepScans !== false,
        strings: this.#strings,
      });

      read += scan.readCount;
      reused += scan.skills.size - scan.readCount;
      const changed =
        before === undefined ||
        scan.readCount > 0 ||
        scan.listCount > 0 ||
        scan.skills.size !== before.skills.size ||
        scan.directories.size !== before.directories.size;
      if (changed) {
        anyChange = true;
        this.#unsaved.add(source.id);
        if (before === undefined || scan.skills.size !== before.skills.size) structural = true;
        else if (!structural) {
          for (const [directory, record] of scan.skills) {
            const earlier = before.skills.get(directory);
            if (earlier === undefined) {
              structural = true;
              break;
            }
            if (earlier !== record) touched.push({ before: earlier, after: record });
          }
        }
      }
      return scan;
    });
    this.#stats = { read, reused, cachedSources };
    if (useCache) this.saveIndex();
    // Nothing re-read, re-listed or gone: the entries are still right.
    if (!anyChange && this.#groups.size > 0) return undefined;
    if (!structural && this.#groups.size > 0) {
      const patched = this.#patch(touched);
      if (patched !== undefined) return patched;
    }
    this.#build();
    // A one-shot caller (a CLI command) has no use for the scans once the entries exist.
    if (this.#options.keepScans === false) this.#scans = [];
    return undefined;
  }

  /**
   * Rebuilds only the name groups of skill files that changed without changing their name.
   * Returns undefined when that is not possible (a name changed, or a look-alike check could).
   */
  #patch(
    touched: ReadonlyArray<{ readonly before: SkillRecord; readonly after: SkillRecord }>,
  ): RegistryChanges | undefined {
    if (this.#foreignNames) return undefined;
    const nameOf = (record: SkillRecord) => record.metadata?.name ?? baseName(record.directory);

    for (const { before, after } of touched) {
      const name = nameOf(after);
      if (name !== nameOf(before) || !isAsciiName(name) || !this.#groups.has(name))
        return undefined;
    }
    const entries = this.#entries.slice();
    const changed: RegistryEntry[] = [];
    const added: RegistryEntry[] = [];
    const removed: RegistryEntry[] = [];
    const names = new Set(touched.map(({ after }) => nameOf(after)));
    let activeNamesChanged = false;

    for (const name of names) {
      const group = this.#groups.get(name) as BuiltGroup;
      const previousEntries = groupEntries(group);
      const sources = groupSources(group);
      const records = groupRecords(group).map(
        (record) => touched.find(({ before }) => before === record)?.after ?? record,
      );
      const candidates = records.map((record, index) => {
        const source = sources[index] as SkillSource;
        return {
          record,
          source,
          name,
          rank: this.#rank(source),
          mismatch: baseName(record.directory) === name ? 0 : 1,
        };
      });
      const rebuilt = this.#buildGroup(candidates);
      const hadActive = previousEntries.some((entry) => entry.status === 'active');
      const hasActive = rebuilt.some((entry) => entry.status === 'active');
      if (hadActive !== hasActive) activeNamesChanged = true;
      for (let index = 0; index < rebuilt.length; index += 1) {
        entries[group.start + index] = rebuilt[index] as RegistryEntry;
      }
      for (const previous of previousEntries) this.#byAddress.delete(previous.address);
      for (const next of rebuilt) {
        this.#byAddress.set(next.address, next);
        // Setting an existing key keeps its place, so the active map stays in name order.
        if (next.status === 'active') this.#active.set(next.name, next);
        const previous = previousEntries.find((entry) => entry.address === next.address);
        if (previous === undefined) added.push(next);
        else if (
          previous.status !== next.status ||
          !sameIdentity(previous.identity, next.identity) ||
          previous.metadata !== next.metadata ||
          previous.shadowedBy !== next.shadowedBy
        )
          changed.push(next);
      }
      for (const previous of previousEntries) {
        if (!rebuilt.some((next) => next.address === previous.address)) removed.push(previous);
      }
      this.#groups.set(name, makeGroup(records, sources, rebuilt, group.start));
    }
    this.#entries = entries;
    if (activeNamesChanged) {
      this.#active = new Map(
        entries.filter((entry) => entry.status === 'active').map((entry) => [entry.name, entry]),
      );
    }
    return { added, removed, changed };
  }

  #rank(source: SkillSource): number {
    const kindRank = this.#precedence.indexOf(source.kind);
    const order = this.#options.sources.indexOf(source);
    return (kindRank === -1 ? this.#precedence.length : kindRank) * 10_000 + order;
  }

  /**
   * Turns the scans into entries. Skills are grouped by name; a group whose skill records are
   * the very same objects as at the last build keeps its entries, so a refresh after one change
   * rebuilds one group, not ten thousand.
   */
  #build(): void {
    const groups = new Map<string, Candidate[]>();
    for (const scan of this.#scans) {
      const rank = this.#rank(scan.source);
      for (const record of scan.skills.values()) {
        const directoryName = baseName(record.directory);
        const name = record.metadata?.name ?? directoryName;
        const candidate: Candidate = {
          record,
          source: scan.source,
          name,
          rank,
          mismatch: directoryName === name ? 0 : 1,
        };
        const group = groups.get(name);
        if (group === undefined) groups.set(name, [candidate]);
        else group.push(candidate);
      }
    }
    const names = [...groups.keys()].sort(byText);
    const entries: RegistryEntry[] = [];
    const byAddress = new Map<string, RegistryEntry>();
    const active = new Map<string, RegistryEntry>();
    const built = new Map<string, BuiltGroup>();
    for (const name of names) {
      const group = groups.get(name) as Candidate[];
      // Highest precedence first; within a source, a copy whose directory matches its name first.
      if (group.length > 1) {
        group.sort(
          (a, b) =>
            a.rank - b.rank ||
            a.mismatch - b.mismatch ||
            byText(a.record.directory, b.record.directory),
        );
      }
      const before = this.#groups.get(name);
      const start = entries.length;
      let members: readonly RegistryEntry[];
      if (before !== undefined && sameMembers(before, group)) {
        members = groupEntries(before);
        built.set(name, before.start === start ? before : { ...before, start });
      } else {
        members = this.#buildGroup(group);
        built.set(
          name,
          makeGroup(
            group.map((c) => c.record),
            group.map((c) => c.source),
            members,
            start,
          ),
        );
      }
      for (const entry of members) {
        entries.push(entry);
        byAddress.set(entry.address, entry);
        if (entry.status === 'active') active.set(entry.name, entry);
      }
    }
    // Groups exist to make later builds incremental; a one-shot registry does not keep them.
    this.#groups = this.#options.keepScans === false ? new Map() : built;
    this.#foreignNames = [...active.keys()].some((name) => !isAsciiName(name));
    this.#flagConfusable(active, entries, byAddress);
    this.#entries = entries;
    this.#byAddress = byAddress;
    this.#active = active;
  }

  #buildGroup(group: readonly Candidate[]): RegistryEntry[] {
    const entries: RegistryEntry[] = [];
    const addresses = new Set<string>();
    const seenReal = new Set<string>();
    let winner: RegistryEntry | undefined;
    for (const { record, source, name } of group) {
      const diagnostics = [...record.diagnostics];
      let address = `${name}@${source.id}`;
      for (let index = 2; addresses.has(address); index += 1)
        address = `${name}@${source.id}#${index}`;
      addresses.add(address);
      let status: SkillStatus;
      let shadowedBy: string | undefined;
      let identical: boolean | undefined;
      if (record.metadata === undefined) status = 'skipped';
      else if (!source.enabled) status = 'untrusted';
      else if (winner === undefined) status = 'active';
      else {
        status = 'shadowed';
        shadowedBy = winner.address;
        identical = seenReal.has(record.realDirectory) || this.#identical(winner, record);
        const file = joinPath(record.directory, record.skillFileName);
        diagnostics.push(
          identical
            ? createDiagnostic(
                'SKILL_DUPLICATE',
                'info',
                `Identical copy of ${winner.address} (${winner.directory}); collapsed into it`,
                file,
              )
            : createDiagnostic(
                'SKILL_SHADOWED',
                'warning',
                `Shadowed by ${winner.address} (${winner.directory}), which takes precedence`,
                file,
              ),
        );
      }
      const entry: RegistryEntry = {
        name,
        address,
        source,
        directory: record.directory,
        realDirectory: record.realDirectory,
        skillFile: joinPath(record.directory, record.skillFileName),
        status,
        metadata: record.metadata,
        diagnostics: diagnostics.length > 1 ? diagnostics.sort(compareDiagnostics) : diagnostics,
        ...(shadowedBy === undefined ? {} : { shadowedBy }),
        ...(identical === undefined ? {} : { identical }),
        identity: record.identity,
        links: record.links,
      };
      entries.push(entry);
      if (status === 'active') winner = entry;
      seenReal.add(record.realDirectory);
    }
    return entries;
  }

  #identical(winner: RegistryEntry, record: SkillRecord): boolean {
    if (winner.realDirectory === record.realDirectory) return true;
    if (this.#options.hash === undefined) return false;
    const loser = {
      directory: record.directory,
      skillFile: joinPath(record.directory, record.skillFileName),
    } as RegistryEntry;
    const a = this.contentHash(winner);
    return a !== undefined && a === this.contentHash(loser);
  }

  /** Adds a warning to active skills whose names look like another active skill's name. */
  #flagConfusable(
    active: Map<string, RegistryEntry>,
    entries: RegistryEntry[],
    byAddress: Map<string, RegistryEntry>,
  ): void {
    // Look-alikes need a non-ASCII letter: only those names are reduced to a skeleton, and
    // compared with every active name.
    const foreign = [...active.values()].filter((entry) => !isAsciiName(entry.name));
    if (foreign.length === 0) return;
    const bySkeleton = new Map<string, RegistryEntry[]>();
    const add = (skeleton: string, entry: RegistryEntry) => {
      const group = bySkeleton.get(skeleton);
      if (group === undefined) bySkeleton.set(skeleton, [entry]);
      else if (!group.includes(entry)) group.push(entry);
    };
    for (const entry of foreign) add(nameSkeleton(entry.name), entry);
    for (const entry of active.values()) {
      const plain = entry.name.toLowerCase();
      if (bySkeleton.has(plain)) add(plain, entry);
    }
    for (const group of bySkeleton.values()) {
      if (group.length < 2) continue;
      for (const entry of group) {
        if (
          isAsciiName(entry.name) &&
          group.every((other) => other === entry || !isAsciiName(other.name))
        )
          continue;
        const others = group.filter((other) => other !== entry).map((other) => other.address);
        const updated: RegistryEntry = {
          ...entry,
          diagnostics: [
            ...entry.diagnostics,
            createDiagnostic(
              'NAME_CONFUSABLE',
              'warning',
              `Name '${entry.name}' looks like ${others.join(', ')}`,
              entry.skillFile,
            ),
          ],
        };
        entries[entries.indexOf(entry)] = updated;
        byAddress.set(entry.address, updated);
        active.set(entry.name, updated);
      }
    }
  }
}
