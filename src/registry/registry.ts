import type {
  CacheStore,
  ContentHasher,
  DirectoryWatcher,
  SkillFileSystem,
  WatchHandle,
} from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { isWithinPath } from '../paths.js';
import { ContentHashes } from './content-hash.js';
import type { DiscoveryOptions, SourceScan } from './discover.js';
import { type Candidate, type EntryRules, type RegistryEntry, resolveEntries } from './entries.js';
import { type EntryTable, emptyEntryTable } from './entry-table.js';
import { encodeScan, encodeScanLines, indexKey } from './index-cache.js';
import {
  diffEntries,
  patchEntries,
  type RegistryChanges,
  type RegistryStats,
  rescanSources,
} from './refresh.js';
import { DEFAULT_PRECEDENCE, type SkillSource, type SourceKind } from './sources.js';
import { StringTable } from './strings.js';
import { rescanChanged } from './targeted.js';
import { type RegistryWatchOptions, watchSources } from './watch.js';

export type { RegistryEntry, SkillStatus } from './entries.js';
export type { RegistryChanges, RegistryStats } from './refresh.js';
export type { RegistryWatchOptions } from './watch.js';

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
  /**
   * Open from the index cache as it was saved, checking no file (a source without an index is
   * scanned as usual): for a server that must answer at once. The first `refresh()` checks
   * every file and reports what changed since the index was saved.
   */
  readonly indexFirst?: boolean;
  /**
   * The YAML library, or a function that loads it, for a frontmatter the fast scanner cannot
   * read; without it such a skill is skipped with YAML_LIBRARY_MISSING. The public entries pass it.
   */
  readonly yaml?: YamlSource;
  /** Skill names the user switched off: listed as `disabled`, never active, never offered. */
  readonly disabled?: readonly string[];
  /**
   * Skills installed from a source outside the user's control (a git repository, an archive):
   * each a skill directory, or a folder of them. Their entries are untrusted whatever their
   * source's trust, so a model's activation asks first, until the user trusts them.
   */
  readonly externalSkills?: readonly string[];
}

function* candidatesOf(scans: readonly SourceScan[]): Generator<Candidate> {
  for (const scan of scans)
    for (const record of scan.skills.values()) yield { record, source: scan.source };
}

/**
 * The skills of a set of sources: discovered at the metadata level, checked leniently,
 * collisions resolved by precedence with every shadowed copy kept addressable.
 */
export class SkillRegistry {
  readonly #options: RegistryOptions;
  readonly #rules: EntryRules;
  /** Recurring strings of this registry's records, kept once. */
  readonly #strings = new StringTable();
  readonly #hashes: ContentHashes | undefined;
  readonly #unsaved = new Set<string>();
  #scans: SourceScan[] = [];
  #diagnostics: readonly Diagnostic[] = [];
  #table: EntryTable = emptyEntryTable();
  #stats: RegistryStats = { read: 0, reused: 0, cachedSources: 0 };
  /** Every file was checked at least once (false while opened from the index unchecked). */
  #checked = false;

  protected constructor(options: RegistryOptions) {
    this.#options = options;
    const hasher = options.hash;
    this.#hashes =
      hasher === undefined
        ? undefined
        : new ContentHashes(options.fs, hasher, options.discovery?.limits);
    const disabled = new Set(options.disabled ?? []);
    const external = options.externalSkills ?? [];
    this.#rules = {
      ...(disabled.size === 0 ? {} : { disabled: (name: string) => disabled.has(name) }),
      ...(external.length === 0
        ? {}
        : {
            external: (directory: string) =>
              external.some((folder) => isWithinPath(folder, directory)),
          }),
      sources: options.sources,
      precedence: options.precedence ?? DEFAULT_PRECEDENCE,
      identical: (winner, copy) => {
        const a = this.contentHash(winner);
        return a !== undefined && a === this.contentHash(copy);
      },
    };
  }

  /** Discovers the skills of every source (using the index cache when given). */
  static open(options: RegistryOptions): SkillRegistry {
    // `this`, so that a subclass (an entry's registry with its YAML library bound) opens its own.
    const registry = new this(options);
    registry.#update(true);
    return registry;
  }

  /** Every copy of every skill, sorted by name, then precedence. */
  get entries(): readonly RegistryEntry[] {
    return this.#table.entries;
  }

  /** Findings about the sources themselves (limits reached, loops, unreadable folders). */
  get diagnostics(): readonly Diagnostic[] {
    return this.#diagnostics;
  }

  get sources(): readonly SkillSource[] {
    return this.#options.sources;
  }

  get stats(): RegistryStats {
    return this.#stats;
  }

  /** The YAML library (or its loader) this registry reads with; activation re-reads with it. */
  get yaml(): YamlSource | undefined {
    return this.#options.yaml;
  }

  /** The skills offered to a model: one per name, sorted by name. */
  active(): RegistryEntry[] {
    // The entries are in name order with one active copy a name at most: the active map's order.
    return this.#table.entries.filter((entry) => entry.status === 'active');
  }

  /**
   * Looks a skill up by name (the active copy) or by address (`name@source-id`, any copy).
   * Names are only ever keys into the registry, never paths.
   */
  resolve(nameOrAddress: string): RegistryEntry | undefined {
    return nameOrAddress.includes('@')
      ? this.#table.byAddress.get(nameOrAddress)
      : this.#table.active.get(nameOrAddress);
  }

  /**
   * Every copy of the skill `name` (its folder's name), usable or not, highest precedence first:
   * what to say about a name that has no active copy.
   */
  copies(name: string): readonly RegistryEntry[] {
    const { entries } = this.#table;
    // The entries are sorted by name: find the first with this name, then take its group.
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((entries[middle] as RegistryEntry).name < name) low = middle + 1;
      else high = middle;
    }
    let end = low;
    while (end < entries.length && (entries[end] as RegistryEntry).name === name) end += 1;
    return entries.slice(low, end);
  }

  /**
   * Re-reads only what changed since the last scan (skill files by inode, size and times;
   * folders by their own identity) and reports the entries added, removed and changed.
   * `changed`, the paths a watcher reported, narrows the check to the skill files they can
   * affect; a path that could add, remove or move a skill (or one the registry cannot place)
   * makes it check everything, as without it.
   */
  refresh(changed?: Iterable<string>): RegistryChanges {
    const before = this.#table;
    const patched = this.#update(false, changed);
    if (patched !== undefined) return patched;
    if (this.#table === before) return { added: [], removed: [], changed: [] };
    return diffEntries(
      before.entries,
      this.#table.entries,
      before.byAddress,
      this.#table.byAddress,
    );
  }

  /**
   * Watches the sources and calls `listener` with what was added, changed or removed, after
   * changes settle for `debounceMs` (default 100). Only roots that exist are watched.
   */
  watch(
    watcher: DirectoryWatcher,
    listener: (changes: RegistryChanges) => void,
    options: RegistryWatchOptions = {},
  ): WatchHandle {
    const { fs, sources, discovery = {} } = this.#options;
    return watchSources(
      fs,
      sources,
      discovery,
      watcher,
      (changed) => this.refresh(changed),
      listener,
      options,
    );
  }

  /**
   * The digest of a skill's SKILL.md (undefined without a hasher or when it cannot be read),
   * remembered per file identity.
   */
  contentHash(entry: Pick<RegistryEntry, 'directory' | 'skillFile'>): string | undefined {
    return this.#hashes?.of(entry);
  }

  /** Writes the index of every source whose scan changed since it was last written. */
  saveIndex(): void {
    const { cache, discovery = {} } = this.#options;
    if (cache === undefined) return;
    for (const scan of this.#scans) {
      if (!this.#unsaved.has(scan.source.id)) continue;
      const key = indexKey(scan.source, discovery, this.#options.version ?? 'dev');
      // Line by line where the store can: a large index is never one string.
      if (cache.saveLines === undefined) cache.save(key, encodeScan(scan, key));
      else cache.saveLines(key, encodeScanLines(scan, key));
    }
    this.#unsaved.clear();
  }

  /**
   * Scans every source again (reusing what is unchanged) and brings the entries up to date.
   * When only some skill files changed and their names did not, only their name groups are
   * rebuilt, and the changes are returned; otherwise everything is rebuilt (undefined).
   */
  #update(useCache: boolean, changed?: Iterable<string>): RegistryChanges | undefined {
    const { fs, cache, discovery = {}, keepScans } = this.#options;
    const trustCache = useCache && this.#options.indexFirst === true;
    const inputs = {
      fs,
      sources: this.#options.sources,
      discovery,
      strings: this.#strings,
      version: this.#options.version ?? 'dev',
      ...(useCache && cache !== undefined ? { cache } : {}),
      trustCache,
      batchFromCache: keepScans !== false,
      ...(this.#options.yaml === undefined ? {} : { yaml: this.#options.yaml }),
    };
    // Only the files a watcher named, once every file has been checked and the scans are kept.
    const targeted =
      changed !== undefined && this.#checked && this.#scans.length > 0
        ? rescanChanged(this.#scans, changed, inputs)
        : undefined;
    const rescan = targeted ?? rescanSources(this.#scans, inputs);
    if (!trustCache) this.#checked = true;
    this.#scans = rescan.scans;
    // Kept apart from the scans, which a one-shot caller drops: a limit is never silent.
    this.#diagnostics = rescan.scans.flatMap((scan) => scan.diagnostics);
    this.#stats = rescan.stats;
    for (const id of rescan.changedSources) this.#unsaved.add(id);
    if (useCache) this.saveIndex();
    const incremental = this.#table.groups.size > 0;
    // Nothing re-read, re-listed or gone: the entries are still right.
    if (!rescan.anyChange && incremental) return undefined;
    if (!rescan.structural && incremental) {
      const patched = patchEntries(this.#table, rescan.touched, this.#rules);
      if (patched !== undefined) {
        this.#table = patched.table;
        return patched.changes;
      }
    }
    this.#table = resolveEntries(
      candidatesOf(this.#scans),
      this.#rules,
      this.#table.groups,
      keepScans !== false,
    );
    // A one-shot caller (a CLI command) has no use for the scans once the entries exist.
    if (keepScans === false) this.#scans = [];
    return undefined;
  }
}
