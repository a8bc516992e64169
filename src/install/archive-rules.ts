import { SkillhostError } from '../errors.js';
import { quote } from '../quote.js';

/** Bounds on what an archive may unpack to. */
export interface ArchiveLimits {
  readonly maxEntries: number;
  /** Most bytes all entries unpack to together. */
  readonly maxBytes: number;
  /** Most unpacked bytes per byte of archive. */
  readonly maxRatio: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = Object.freeze({
  maxEntries: 10_000,
  maxBytes: 100 * 1024 * 1024,
  maxRatio: 100,
});

export type ArchiveEntryType =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'hardlink'
  | 'device'
  | 'fifo'
  | 'other';

/** One entry of an archive as its header describes it, before anything is written. */
export interface ArchiveEntry {
  /** The path the archive gives (decoded). */
  readonly path: string;
  readonly type: ArchiveEntryType;
  /** Bytes it unpacks to. */
  readonly size: number;
  /** For links: the target as written in the archive. */
  readonly linkTarget?: string;
}

/** An entry that passed: its normalised path (relative, POSIX, no `.` segments). */
export interface CheckedEntry {
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'hardlink';
  readonly size: number;
  /** For a symbolic link: its target; for a hard link: the normalised path it links to. */
  readonly linkTarget?: string;
}

function refuse(
  code:
    | 'ARCHIVE_PATH_UNSAFE'
    | 'ARCHIVE_LINK_OUTSIDE'
    | 'ARCHIVE_ENTRY_TYPE'
    | 'ARCHIVE_DUPLICATE_ENTRY'
    | 'ARCHIVE_LIMIT',
  archive: string,
  message: string,
): SkillhostError {
  return new SkillhostError(code, `${archive}: ${message}`, { details: { archive } });
}

/** A path's segments, `.` and empty ones removed; undefined when it is absolute or unsafe. */
function safeSegments(path: string): string[] | undefined {
  if (
    path.startsWith('/') ||
    path.includes('\\') ||
    /^[A-Za-z]:/.test(path) ||
    /\p{Cc}/u.test(path)
  )
    return undefined;
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  return segments.includes('..') ? undefined : segments;
}

/** Resolves `..` segments lexically; undefined when the path climbs above the root. */
function resolveWithin(parts: readonly string[]): string[] | undefined {
  const kept: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part !== '..') kept.push(part);
    else if (kept.pop() === undefined) return undefined;
  }
  return kept;
}

/**
 * Judges an archive's entries one by one as they are listed, before anything is extracted, and
 * throws at the first that is refused: absolute paths, `..`, backslashes and drive letters,
 * links that leave the folder (or paths that run through a link), devices and FIFOs, the same
 * path twice (or twice but for case, or a file that is also a folder), and more entries, bytes
 * or compression than the limits allow. `finish` makes the checks that need every entry.
 */
export class ArchiveChecker {
  readonly #archive: string;
  readonly #limits: ArchiveLimits;
  readonly #archiveBytes: number;
  readonly #entries: CheckedEntry[] = [];
  readonly #byPath = new Map<string, CheckedEntry>();
  readonly #folded = new Map<string, string>();
  readonly #links = new Set<string>();
  #bytes = 0;

  constructor(archive: string, archiveBytes: number, limits: ArchiveLimits = ARCHIVE_LIMITS) {
    this.#archive = archive;
    this.#archiveBytes = Math.max(1, archiveBytes);
    this.#limits = limits;
  }

  get entries(): readonly CheckedEntry[] {
    return this.#entries;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Checks one entry; returns it normalised, or undefined for the archive's root folder (`./`). */
  check(entry: ArchiveEntry): CheckedEntry | undefined {
    const archive = this.#archive;
    if (this.#entries.length + 1 > this.#limits.maxEntries)
      throw refuse('ARCHIVE_LIMIT', archive, `more than ${this.#limits.maxEntries} entries`);
    const segments = safeSegments(entry.path);
    if (segments === undefined)
      throw refuse(
        'ARCHIVE_PATH_UNSAFE',
        archive,
        `the entry ${quote(entry.path)} is not a plain relative path`,
      );
    if (segments.length === 0) {
      if (entry.type === 'directory') return undefined;
      throw refuse('ARCHIVE_PATH_UNSAFE', archive, `the entry ${quote(entry.path)} has no name`);
    }
    if (entry.type === 'device' || entry.type === 'fifo' || entry.type === 'other')
      throw refuse(
        'ARCHIVE_ENTRY_TYPE',
        archive,
        `the entry ${quote(entry.path)} is a ${entry.type === 'other' ? 'special file' : entry.type}`,
      );
    const path = segments.join('/');
    if (!Number.isSafeInteger(entry.size) || entry.size < 0)
      throw refuse('ARCHIVE_LIMIT', archive, `the entry ${quote(path)} has an impossible size`);
    this.#bytes += entry.size;
    if (this.#bytes > this.#limits.maxBytes)
      throw refuse(
        'ARCHIVE_LIMIT',
        archive,
        `it unpacks to more than ${this.#limits.maxBytes} bytes`,
      );
    if (this.#bytes / this.#archiveBytes > this.#limits.maxRatio)
      throw refuse(
        'ARCHIVE_LIMIT',
        archive,
        `it unpacks to more than ${this.#limits.maxRatio} times its size (a compression bomb?)`,
      );
    const earlier = this.#byPath.get(path);
    if (earlier !== undefined && !(earlier.type === 'directory' && entry.type === 'directory'))
      throw refuse('ARCHIVE_DUPLICATE_ENTRY', archive, `the path ${quote(path)} appears twice`);
    const folded = path.toLowerCase();
    const twin = this.#folded.get(folded);
    if (twin !== undefined && twin !== path)
      throw refuse(
        'ARCHIVE_DUPLICATE_ENTRY',
        archive,
        `the paths ${quote(twin)} and ${quote(path)} differ only in case`,
      );
    let linkTarget: string | undefined;
    if (entry.type === 'symlink') {
      const target = entry.linkTarget ?? '';
      const resolved =
        target.startsWith('/') || /\\|\p{Cc}/u.test(target)
          ? undefined
          : resolveWithin([...segments.slice(0, -1), ...target.split('/')]);
      if (target === '' || resolved === undefined || resolved.length === 0)
        throw refuse(
          'ARCHIVE_LINK_OUTSIDE',
          archive,
          `the link ${quote(path)} points to ${quote(target)}, outside the archive's folder`,
        );
      linkTarget = target;
      this.#links.add(path);
    } else if (entry.type === 'hardlink') {
      const target = safeSegments(entry.linkTarget ?? '');
      const joined = target?.join('/');
      const linked = joined === undefined ? undefined : this.#byPath.get(joined);
      if (joined === undefined || linked === undefined || linked.type !== 'file')
        throw refuse(
          'ARCHIVE_LINK_OUTSIDE',
          archive,
          `the hard link ${quote(path)} does not point to a file earlier in the archive`,
        );
      linkTarget = joined;
    }
    const checked: CheckedEntry = {
      path,
      type: entry.type,
      size: entry.size,
      ...(linkTarget === undefined ? {} : { linkTarget }),
    };
    if (earlier === undefined) {
      this.#entries.push(checked);
      this.#byPath.set(path, checked);
      this.#folded.set(folded, path);
    }
    return checked;
  }

  /**
   * The checks over all entries: no entry is below a file or a link (a write through a link, or a
   * link chain that climbs out), and no link's target runs through another link.
   */
  finish(): readonly CheckedEntry[] {
    const archive = this.#archive;
    for (const entry of this.#entries) {
      const segments = entry.path.split('/');
      for (let index = 1; index < segments.length; index += 1) {
        const prefix = segments.slice(0, index).join('/');
        const parent = this.#byPath.get(prefix);
        if (parent === undefined || parent.type === 'directory') continue;
        if (parent.type === 'symlink')
          throw refuse(
            'ARCHIVE_LINK_OUTSIDE',
            archive,
            `the entry ${quote(entry.path)} lies below the link ${quote(prefix)}`,
          );
        throw refuse(
          'ARCHIVE_DUPLICATE_ENTRY',
          archive,
          `${quote(prefix)} is both a file and a folder`,
        );
      }
      if (entry.type === 'symlink') {
        const target = [...segments.slice(0, -1), ...(entry.linkTarget as string).split('/')];
        const kept: string[] = [];
        for (const part of target) {
          if (part === '' || part === '.') continue;
          if (part === '..') kept.pop();
          else kept.push(part);
          if (part !== '..' && this.#links.has(kept.join('/')) && kept.join('/') !== entry.path)
            throw refuse(
              'ARCHIVE_LINK_OUTSIDE',
              archive,
              `the link ${quote(entry.path)} points through another link`,
            );
        }
      }
    }
    return this.#entries;
  }
}
