import {
  closeSync,
  constants,
  createReadStream,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ReadEntry } from 'tar';
import type * as Yauzl from 'yauzl';
import { ARCHIVE_LIMITS, type ArchiveLimits } from '../../core.js';
import { SkillhostError } from '../../errors.js';
import {
  ArchiveChecker,
  type ArchiveEntry,
  type ArchiveEntryType,
  type ArchiveFormat,
  type CheckedEntry,
} from '../../internal.js';

/** What an extraction wrote. */
export interface ExtractedArchive {
  readonly entries: number;
  readonly bytes: number;
}

/** Most bytes a link's target may take in a zip (its content is the target). */
const MAX_LINK_TARGET = 4096;

function invalid(archive: string, message: string, cause?: unknown): SkillhostError {
  return new SkillhostError('ARCHIVE_INVALID', `${archive}: ${message}`, {
    details: { archive },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Writes checked entries below `destination`, which the caller made empty: folders first as they
 * come, files opened with O_EXCL and O_NOFOLLOW (never through a link, never over anything),
 * links last, when nothing is written any more.
 */
class EntryWriter {
  readonly #destination: string;
  readonly #links: CheckedEntry[] = [];

  constructor(destination: string) {
    this.#destination = destination;
  }

  #path(entry: CheckedEntry): string {
    return join(this.#destination, ...entry.path.split('/'));
  }

  directory(entry: CheckedEntry): void {
    mkdirSync(this.#path(entry), { recursive: true, mode: 0o755 });
  }

  file(entry: CheckedEntry, chunks: readonly Buffer[], mode: number): void {
    const path = this.#path(entry);
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    const fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode & 0o111 ? 0o755 : 0o644,
    );
    try {
      let written = 0;
      for (const chunk of chunks) {
        written += chunk.length;
        if (written > entry.size)
          throw new Error(`${entry.path} holds more bytes than its header says`);
        writeSync(fd, chunk);
      }
      if (written !== entry.size)
        throw new Error(`${entry.path} holds fewer bytes than its header says`);
    } finally {
      closeSync(fd);
    }
  }

  link(entry: CheckedEntry): void {
    this.#links.push(entry);
  }

  /** Makes the links, once every file is in place. */
  finish(): void {
    for (const entry of this.#links) {
      const path = this.#path(entry);
      mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
      if (entry.type === 'symlink') symlinkSync(entry.linkTarget as string, path);
      else linkSync(join(this.#destination, ...(entry.linkTarget as string).split('/')), path);
    }
  }
}

function tarType(type: string): ArchiveEntryType {
  switch (type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return 'file';
    case 'Directory':
    case 'GNUDumpDir':
      return 'directory';
    case 'SymbolicLink':
      return 'symlink';
    case 'Link':
      return 'hardlink';
    case 'CharacterDevice':
    case 'BlockDevice':
      return 'device';
    case 'FIFO':
      return 'fifo';
    default:
      return 'other';
  }
}

/** Reads a gzip-compressed tar with node-tar, calling `visit` for each entry (and its bytes). */
async function readTar(
  file: string,
  archive: string,
  visit: (entry: ReadEntry, done: (error?: unknown) => void) => void,
): Promise<void> {
  // Loaded on first need: no other command pays for the archive libraries.
  const { Parser } = await import('tar');
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      if (error === undefined) resolve();
      else
        reject(
          SkillhostError.isInstance(error)
            ? error
            : invalid(archive, error instanceof Error ? error.message : String(error), error),
        );
    };
    let pending = 0;
    let ended = false;
    const parser = new Parser({
      strict: true,
      maxDecompressionRatio: ARCHIVE_LIMITS.maxRatio,
      onReadEntry: (entry) => {
        if (settled) {
          entry.resume();
          return;
        }
        pending += 1;
        try {
          visit(entry, (error) => {
            pending -= 1;
            if (error !== undefined) settle(error);
            else if (ended && pending === 0) settle();
          });
        } catch (error) {
          settle(error);
        }
      },
    });
    parser.on('error', (error: Error) => settle(error));
    parser.on('abort', (error: Error) => settle(error));
    parser.on('end', () => {
      ended = true;
      if (pending === 0) settle();
    });
    const stream = createReadStream(file);
    stream.on('error', (error) => settle(error));
    stream.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

async function extractTar(
  file: string,
  archive: string,
  destination: string,
  limits: ArchiveLimits,
): Promise<ExtractedArchive> {
  const header = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  if (header[0] !== 0x1f || header[1] !== 0x8b) throw invalid(archive, 'not gzip-compressed');
  const checker = new ArchiveChecker(archive, statSync(file).size, limits);
  // First pass: every header judged before anything is written.
  await readTar(file, archive, (entry, done) => {
    checker.check({
      path: entry.path,
      type: tarType(entry.type),
      size: tarType(entry.type) === 'file' ? entry.size : 0,
      ...(entry.linkpath === undefined ? {} : { linkTarget: entry.linkpath }),
    });
    entry.on('end', () => done());
    entry.resume();
  });
  const allowed = new Map(checker.finish().map((entry) => [entry.path, entry]));
  // Second pass: the same entries, written by our own writer.
  const writer = new EntryWriter(destination);
  const seen = new Set<string>();
  await readTar(file, archive, (entry, done) => {
    const path = entry.path
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .join('/');
    const checked = allowed.get(path);
    if (path === '' && tarType(entry.type) === 'directory') {
      entry.on('end', () => done());
      entry.resume();
      return;
    }
    if (checked === undefined || seen.has(path) || checked.type !== tarType(entry.type))
      throw invalid(archive, `the entry ${path} changed between readings`);
    seen.add(path);
    if (checked.type === 'directory') writer.directory(checked);
    if (checked.type === 'symlink' || checked.type === 'hardlink') writer.link(checked);
    if (checked.type !== 'file') {
      entry.on('end', () => done());
      entry.resume();
      return;
    }
    const chunks: Buffer[] = [];
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    entry.on('end', () => {
      try {
        writer.file(checked, chunks, entry.mode ?? 0o644);
        done();
      } catch (error) {
        done(error);
      }
    });
  });
  writer.finish();
  return { entries: allowed.size, bytes: checker.bytes };
}

/** The kind of a zip entry from its name and the Unix mode in its external attributes. */
function zipType(entry: Yauzl.Entry, name: string): ArchiveEntryType {
  const unix =
    entry.versionMadeBy >> 8 === 3 ? (entry.externalFileAttributes >>> 16) & 0o170000 : 0;
  if (name.endsWith('/')) return 'directory';
  switch (unix) {
    case 0:
    case 0o100000:
      return 'file';
    case 0o040000:
      return 'directory';
    case 0o120000:
      return 'symlink';
    case 0o020000:
    case 0o060000:
      return 'device';
    case 0o010000:
      return 'fifo';
    default:
      return 'other';
  }
}

function readAll(stream: Readable, max: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        stream.destroy(new Error(`an entry holds more than ${max} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(chunks));
  });
}

async function extractZip(
  file: string,
  archive: string,
  destination: string,
  limits: ArchiveLimits,
): Promise<ExtractedArchive> {
  const yauzl: typeof Yauzl = await import('yauzl');
  let zip: Yauzl.ZipFile;
  try {
    // Names are decoded and judged here, not by yauzl: every entry passes our own checks.
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw invalid(archive, error instanceof Error ? error.message : String(error), error);
  }
  try {
    if (zip.entryCount > limits.maxEntries)
      throw new SkillhostError(
        'ARCHIVE_LIMIT',
        `${archive}: more than ${limits.maxEntries} entries`,
        {
          details: { archive },
        },
      );
    const checker = new ArchiveChecker(archive, statSync(file).size, limits);
    const found: Array<{ readonly entry: Yauzl.Entry; readonly checked: CheckedEntry }> = [];
    try {
      for await (const entry of zip.eachEntry()) {
        const raw = entry.fileName as unknown as Buffer;
        const name = yauzl.getFileNameLowLevel(
          entry.generalPurposeBitFlag,
          raw,
          entry.extraFields,
          false,
        );
        if (entry.isEncrypted()) throw invalid(archive, `the entry ${name} is encrypted`);
        const type = zipType(entry, name);
        let linkTarget: string | undefined;
        if (type === 'symlink') {
          if (entry.uncompressedSize > MAX_LINK_TARGET)
            throw invalid(archive, `the link ${name} is too long`);
          linkTarget = Buffer.concat(
            await readAll(await zip.openReadStreamPromise(entry), MAX_LINK_TARGET),
          ).toString('utf8');
        }
        const described: ArchiveEntry = {
          path: name,
          type,
          size: type === 'file' ? entry.uncompressedSize : 0,
          ...(linkTarget === undefined ? {} : { linkTarget }),
        };
        const checked = checker.check(described);
        if (checked !== undefined) found.push({ entry, checked });
      }
    } catch (error) {
      if (SkillhostError.isInstance(error)) throw error;
      throw invalid(archive, error instanceof Error ? error.message : String(error), error);
    }
    checker.finish();
    const writer = new EntryWriter(destination);
    for (const { entry, checked } of found) {
      if (checked.type === 'directory') writer.directory(checked);
      else if (checked.type === 'file') {
        let chunks: Buffer[];
        try {
          chunks = await readAll(await zip.openReadStreamPromise(entry), checked.size);
        } catch (error) {
          throw invalid(archive, error instanceof Error ? error.message : String(error), error);
        }
        writer.file(checked, chunks, entry.externalFileAttributes >>> 16);
      } else writer.link(checked);
    }
    writer.finish();
    return { entries: found.length, bytes: checker.bytes };
  } finally {
    zip.close();
  }
}

/**
 * Extracts an archive into `destination` (an empty folder the caller made), after judging every
 * entry: nothing is written unless all of them pass (see `ArchiveChecker`). `name` is how
 * messages call the archive.
 */
export async function extractArchive(
  file: string,
  format: ArchiveFormat,
  destination: string,
  options: { readonly name?: string; readonly limits?: ArchiveLimits } = {},
): Promise<ExtractedArchive> {
  const name = options.name ?? file;
  const limits = options.limits ?? ARCHIVE_LIMITS;
  return format === 'zip'
    ? extractZip(file, name, destination, limits)
    : extractTar(file, name, destination, limits);
}
