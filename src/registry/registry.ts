import type {
  CacheStore,
  ContentHasher,
  DirectoryWatcher,
  SkillFileSystem,
  WatchHandle,
} from '../deps.js';
import { compareDiagnostics, createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { baseName, joinPath } from '../paths.js';
import { DEFAULT_READ_LIMITS } from '../spec/limits.js';
import type { SkillMetadata } from '../spec/load.js';
import { isAsciiName } from '../spec/unicode.js';
import {
  type DiscoveryOptions,
  type FileIdentity,
  type SkillRecord,
  type SourceScan,
  sameIdentity,
  scanSource,
} from './discover.js';
import { decodeScan, encodeScan, indexKey } from './index-cache.js';
import { nameSkeleton } from './names.js';
import { DEFAULT_PRECEDENCE, type SkillSource, type SourceKind } from './sources.js';

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
}

export interface RegistryStats {
  /** Skill files read during the last scan or refresh. */
  readonly read: number;
  /** Skill files whose unchanged identity let the scan reuse what it knew. */
  readonly reused: number;
  /** Sources whose index came from the persistent cache. */
  readonly cachedSources: number;
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
  #stats: RegistryStats = { read: 0, reused: 0, cachedSources: 0 };
  readonly #hashes = new Map<string, { identity: FileIdentity; hash: string | undefined }>();

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
    const before = new Map(this.#entries.map((entry) => [entry.address, entry]));
    this.#scanAll(false);
    const added: RegistryEntry[] = [];
    const changed: RegistryEntry[] = [];
    for (const entry of this.#entries) {
      const previous = before.get(entry.address);
      if (previous === undefined) added.push(entry);
      else {
        before.delete(entry.address);
        if (
          previous.status !== entry.status ||
          previous.directory !== entry.directory ||
          !sameIdentity(previous.identity, entry.identity) ||
          previous.shadowedBy !== entry.shadowedBy
        ) {
          changed.push(entry);
        }
      }
    }
    return { added, removed: [...before.values()], changed };
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
      { depth: (discovery.maxDepth ?? 6) + 1, followSymlinks: discovery.followSymlinks ?? false },
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

  #scanAll(useCache: boolean): void {
    const { fs, cache, discovery = {} } = this.#options;
    const version = this.#options.version ?? 'dev';
    const previous = new Map(this.#scans.map((scan) => [scan.source.id, scan]));
    let read = 0;
    let reused = 0;
    let cachedSources = 0;
    this.#scans = this.#options.sources.map((source) => {
      const key = indexKey(source, discovery, version);
      let before = previous.get(source.id);
      if (before === undefined && useCache && cache !== undefined) {
        const text = cache.load(key);
        before = text === undefined ? undefined : decodeScan(text, source, key);
        if (before !== undefined) cachedSources += 1;
      }
      const scan = scanSource(fs, source, discovery, before);
      read += scan.readCount;
      reused += scan.skills.size - scan.readCount;
      const changed =
        before === undefined ||
        scan.readCount > 0 ||
        scan.skills.size !== before.skills.size ||
        scan.directories.size !== before.directories.size ||
        [...scan.directories.values()].some(
          (record) => before?.directories.get(record.path) !== record,
        );
      if (cache !== undefined && changed) cache.save(key, encodeScan(scan, key));
      return scan;
    });
    this.#stats = { read, reused, cachedSources };
    this.#build();
  }

  #rank(source: SkillSource): number {
    const kindRank = this.#precedence.indexOf(source.kind);
    const order = this.#options.sources.indexOf(source);
    return (kindRank === -1 ? this.#precedence.length : kindRank) * 10_000 + order;
  }

  #build(): void {
    interface Candidate {
      record: SkillRecord;
      source: SkillSource;
      name: string;
      rank: number;
    }
    const candidates: Candidate[] = [];
    for (const scan of this.#scans) {
      const rank = this.#rank(scan.source);
      for (const record of scan.skills.values()) {
        candidates.push({
          record,
          source: scan.source,
          name: record.metadata?.name ?? baseName(record.directory),
          rank,
        });
      }
    }
    // Highest precedence first; within a source, a copy whose directory matches its name first.
    candidates.sort(
      (a, b) =>
        byText(a.name, b.name) ||
        a.rank - b.rank ||
        Number(baseName(a.record.directory) !== a.name) -
          Number(baseName(b.record.directory) !== b.name) ||
        byText(a.record.directory, b.record.directory),
    );
    const entries: RegistryEntry[] = [];
    const byAddress = new Map<string, RegistryEntry>();
    const active = new Map<string, RegistryEntry>();
    const seenReal = new Map<string, RegistryEntry>();
    for (const candidate of candidates) {
      const { record, source, name } = candidate;
      const diagnostics = [...record.diagnostics];
      let address = `${name}@${source.id}`;
      for (let index = 2; byAddress.has(address); index += 1)
        address = `${name}@${source.id}#${index}`;
      let status: SkillStatus;
      let shadowedBy: string | undefined;
      let identical: boolean | undefined;
      const winner = active.get(name);
      if (record.metadata === undefined) status = 'skipped';
      else if (!source.enabled) status = 'untrusted';
      else if (winner === undefined) status = 'active';
      else {
        status = 'shadowed';
        shadowedBy = winner.address;
        identical = this.#identical(winner, record);
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
      const sameReal = seenReal.get(record.realDirectory);
      if (status === 'shadowed' && sameReal !== undefined) identical = true;
      const entry: RegistryEntry = {
        name,
        address,
        source,
        directory: record.directory,
        realDirectory: record.realDirectory,
        skillFile: joinPath(record.directory, record.skillFileName),
        status,
        metadata: record.metadata,
        diagnostics: diagnostics.sort(compareDiagnostics),
        ...(shadowedBy === undefined ? {} : { shadowedBy }),
        ...(identical === undefined ? {} : { identical }),
        identity: record.identity,
        links: record.links,
      };
      entries.push(entry);
      byAddress.set(address, entry);
      if (status === 'active') active.set(name, entry);
      if (!seenReal.has(record.realDirectory)) seenReal.set(record.realDirectory, entry);
    }
    this.#flagConfusable(active, entries, byAddress);
    this.#entries = entries;
    this.#byAddress = byAddress;
    this.#active = active;
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
    const bySkeleton = new Map<string, RegistryEntry[]>();
    for (const entry of active.values()) {
      const skeleton = nameSkeleton(entry.name);
      const group = bySkeleton.get(skeleton);
      if (group === undefined) bySkeleton.set(skeleton, [entry]);
      else group.push(entry);
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
