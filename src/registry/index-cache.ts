import type { Code } from '../codes.js';
import { CODES } from '../codes.js';
import type { EntryKind } from '../deps.js';
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { SkillMetadata } from '../format/load.js';
import { baseName } from '../paths.js';
import {
  type DirectoryRecord,
  type DiscoveryOptions,
  noDiagnostics,
  type SkillRecord,
  type SourceScan,
} from './discover.js';
import { fnv1a } from './hash.js';
import type { FileIdentity } from './identity.js';
import type { SkillSource } from './sources.js';
import type { StringTable } from './strings.js';

/**
 * The persistent index: one text per source, so a warm start reads no SKILL.md whose identity is
 * unchanged. Everything in it is checked against the file system before use, and anything
 * malformed makes the whole entry be ignored: deleting the cache is always safe.
 *
 * Version 4 keeps a start from it cheap: paths relative to the source's root, a skill's
 * identity and metadata as the fields of one flat list, and the strings and metadata maps that
 * recur (licences, tools, file names) once, in the header, referred to by number. An index of
 * an earlier version has another key and format, and is never read.
 */
const FORMAT = 'skillhost-index/4';

/** The cache entry name for a source: changes whenever anything that shapes the scan changes. */
export function indexKey(source: SkillSource, options: DiscoveryOptions, version: string): string {
  const shape = JSON.stringify([
    FORMAT,
    version,
    source.root,
    options.maxDepth ?? null,
    options.maxDirectories ?? null,
    options.maxSkills ?? null,
    options.followSymlinks ?? null,
    options.limits ?? null,
    options.skipNames === undefined ? null : [...options.skipNames].sort(),
  ]);
  const readable = source.root
    .replace(/[^A-Za-z0-9]+/g, '-')
    .slice(-40)
    .replace(/^-+/, '');
  return `index-${readable}-${fnv1a(shape)}`;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Strings kept once in an index's header and referred to by their place in it. */
class SharedStrings {
  readonly list: string[] = [];
  readonly #places = new Map<string, number>();

  /** A string's place in the table, or a long one itself. */
  ref(value: string): number | string {
    if (value.length > 256) return value;
    let place = this.#places.get(value);
    if (place === undefined) {
      place = this.list.length;
      this.list.push(value);
      this.#places.set(value, place);
    }
    return place;
  }
}

/** A path as the index keeps it: relative to the root when below it, else `[absolute]`. */
function pathJson(path: string, root: string, prefix: string): Json {
  if (path === root) return '';
  return path.startsWith(prefix) && path.length > prefix.length
    ? path.slice(prefix.length)
    : [path];
}

function rootPrefix(root: string): string {
  return root.endsWith('/') ? root : `${root}/`;
}

/** A listed child's kind is stored as its place here: the order is part of the format. */
const KIND_LIST: readonly EntryKind[] = [
  'file',
  'directory',
  'symlink',
  'fifo',
  'socket',
  'device',
  'other',
];
const KIND_PLACE = new Map(KIND_LIST.map((kind, place) => [kind, place]));
const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

function diagnosticJson(diagnostic: Diagnostic): Json {
  return [
    diagnostic.code,
    diagnostic.severity,
    diagnostic.message,
    diagnostic.file,
    diagnostic.line,
    diagnostic.column,
  ];
}

function identityFields(identity: FileIdentity | undefined): Json[] {
  return identity === undefined
    ? [null, 0, 0, 0, 0]
    : [identity.device, identity.inode, identity.size, identity.mtimeMs, identity.ctimeMs];
}

/** The metadata maps of an index, each once: its place in the header's list. */
class SharedMaps {
  readonly list: Json[][] = [];
  readonly #places = new Map<Readonly<Record<string, string>>, number>();
  readonly #signatures = new Map<string, number>();

  constructor(readonly strings: SharedStrings) {}

  ref(map: Readonly<Record<string, string>>): number {
    let place = this.#places.get(map);
    if (place !== undefined) return place;
    const flat: Json[] = [];
    for (const key of Object.keys(map))
      flat.push(this.strings.ref(key), this.strings.ref(map[key] as string));
    const signature = JSON.stringify(flat);
    place = this.#signatures.get(signature);
    if (place === undefined) {
      place = this.list.length;
      this.list.push(flat);
      this.#signatures.set(signature, place);
    }
    this.#places.set(map, place);
    return place;
  }
}

/**
 * One line of JSON per record, after a header line with the shared strings and maps: decoding
 * then parses one small line at a time instead of building one large tree, which keeps a warm
 * start's memory flat.
 *
 * A directory: `["d", path, device, inode, size, mtime, ctime, [name, kind, name, kind, ...]]`.
 * A skill: `["s", path, realPath | null, fileName, device | null, inode, size, mtime, ctime,
 * links, name | null, description | null, licence | null, compatibility | null, allowed-tools |
 * null, map, diagnostics]`: a `null` description means no usable metadata, a `null` name the
 * directory's own name; a string field is a place in the shared strings or the string itself.
 */
export function* encodeScanLines(
  scan: SourceScan,
  key: string,
): Generator<string, void, undefined> {
  const { root } = scan.source;
  const prefix = rootPrefix(root);
  const strings = new SharedStrings();
  const maps = new SharedMaps(strings);
  const optional = (value: string | undefined): Json =>
    value === undefined ? null : strings.ref(value);
  const skillItem = (record: SkillRecord): Json[] => {
    const { metadata } = record;
    return [
      's',
      pathJson(record.directory, root, prefix),
      record.realDirectory === record.directory ? null : record.realDirectory,
      strings.ref(record.skillFileName),
      ...identityFields(record.identity),
      record.links,
      metadata === undefined || metadata.name === baseName(record.directory) ? null : metadata.name,
      metadata === undefined ? null : metadata.description,
      optional(metadata?.license),
      optional(metadata?.compatibility),
      optional(metadata?.allowedTools),
      metadata === undefined ? 0 : maps.ref(metadata.metadata),
      record.diagnostics.map(diagnosticJson),
    ];
  };
  // The header lists the shared strings and maps and comes first: a first pass finds them, in
  // the order skillItem refers to them (the second finds each in its place), so no line is kept
  // to be written after it.
  for (const { skillFileName, metadata } of scan.skills.values()) {
    strings.ref(skillFileName);
    if (metadata === undefined) continue;
    optional(metadata.license);
    optional(metadata.compatibility);
    optional(metadata.allowedTools);
    maps.ref(metadata.metadata);
  }
  yield JSON.stringify({
    format: FORMAT,
    key,
    root,
    strings: strings.list,
    maps: maps.list,
  });
  for (const record of scan.directories.values()) {
    const children: Json[] = [];
    for (const child of record.children)
      children.push(child.name, KIND_PLACE.get(child.kind) ?? KIND_LIST.length - 1);
    yield JSON.stringify([
      'd',
      pathJson(record.path, root, prefix),
      ...identityFields(record.identity),
      children,
    ]);
  }
  for (const record of scan.skills.values()) yield JSON.stringify(skillItem(record));
}

/** The index entry of a scan as one text: its lines (`encodeScanLines`) joined. */
export function encodeScan(scan: SourceScan, key: string): string {
  return [...encodeScanLines(scan, key)].join('\n');
}

class Malformed extends Error {}

function fail(): never {
  throw new Malformed();
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : fail();
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fail();
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : fail();
}

/** The item at a place in a list, the place a whole number the list has. */
function placeIn<T>(items: readonly T[], value: unknown): T {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < items.length
    ? (items[value] as T)
    : fail();
}

function identityAt(item: readonly unknown[], at: number): FileIdentity | undefined {
  const device = item[at];
  if (device === null) return undefined;
  return {
    device: finite(device),
    inode: finite(item[at + 1]),
    size: finite(item[at + 2]),
    mtimeMs: finite(item[at + 3]),
    ctimeMs: finite(item[at + 4]),
  };
}

function diagnosticFrom(value: unknown): Diagnostic {
  const [code, severity, message, file, line, column] = list(value);
  if (typeof code !== 'string' || !Object.hasOwn(CODES, code)) fail();
  if (!SEVERITIES.includes(severity as Severity)) fail();
  return {
    code: code as Code,
    severity: severity as Severity,
    message: text(message),
    file: text(file),
    line: finite(line),
    column: finite(column),
  };
}

/** The shared strings and maps of a header, checked, with the registry's copies of them. */
function sharedFrom(
  header: Record<string, unknown>,
  strings: StringTable,
): {
  readonly text: (value: unknown) => string;
  readonly optional: (value: unknown) => string | undefined;
  readonly maps: readonly Readonly<Record<string, string>>[];
} {
  const table = list(header.strings).map((value) => strings.intern(text(value)));
  const shared = (value: unknown): string =>
    typeof value === 'number' ? placeIn(table, value) : strings.intern(text(value));
  const maps = list(header.maps).map((value) => {
    const flat = list(value);
    if (flat.length % 2 !== 0) fail();
    const map: Record<string, string> = Object.create(null);
    for (let at = 0; at < flat.length; at += 2) map[shared(flat[at])] = shared(flat[at + 1]);
    return strings.shareMap(map);
  });
  return {
    text: shared,
    optional: (value) => (value === null ? undefined : shared(value)),
    maps,
  };
}

/** The lines of a text as `split('\n')` gives them, one at a time. */
function* textLines(text: string): Generator<string, void, undefined> {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      yield start === 0 ? text : text.slice(start);
      return;
    }
    yield text.slice(start, end);
    start = end + 1;
  }
}

/**
 * Reads a cached scan of `source`, or undefined when the text is not a well-formed entry for it.
 * The entry is the text itself or its lines (a cache store's `loadLines`), read one at a time.
 * Recurring strings are kept once in the registry's table.
 */
export function decodeScan(
  cached: string | Iterable<string>,
  source: SkillSource,
  key: string,
  strings: StringTable,
): SourceScan | undefined {
  try {
    const { root } = source;
    const lines = typeof cached === 'string' ? textLines(cached) : cached;
    let shared: ReturnType<typeof sharedFrom> | undefined;
    const prefix = rootPrefix(root);
    const pathFrom = (value: unknown): string =>
      typeof value === 'string'
        ? value === ''
          ? root
          : `${prefix}${value}`
        : text(list(value)[0]);
    const directories = new Map<string, DirectoryRecord>();
    const skills = new Map<string, SkillRecord>();
    for (const line of lines) {
      if (shared === undefined) {
        const header = JSON.parse(line) as Record<string, unknown>;
        if (header.format !== FORMAT || header.key !== key || header.root !== root)
          return undefined;
        shared = sharedFrom(header, strings);
        continue;
      }
      const item = list(JSON.parse(line));
      if (item[0] === 's') {
        const path = pathFrom(item[1]);
        const realDirectory = item[2];
        const description = item[11];
        let metadata: SkillMetadata | undefined;
        if (description !== null) {
          const name = item[10];
          const license = shared.optional(item[12]);
          const compatibility = shared.optional(item[13]);
          const allowedTools = shared.optional(item[14]);
          metadata = {
            name: name === null ? baseName(path) : text(name),
            description: text(description),
            ...(license === undefined ? {} : { license }),
            ...(compatibility === undefined ? {} : { compatibility }),
            ...(allowedTools === undefined ? {} : { allowedTools }),
            metadata: placeIn(shared.maps, item[15]),
          };
        }
        const found = list(item[16]);
        skills.set(path, {
          directory: path,
          realDirectory: realDirectory === null ? path : text(realDirectory),
          skillFileName: shared.text(item[3]),
          identity: identityAt(item, 4),
          links: finite(item[9]),
          metadata,
          diagnostics: found.length === 0 ? noDiagnostics : found.map(diagnosticFrom),
        });
      } else if (item[0] === 'd') {
        const path = pathFrom(item[1]);
        const identity = identityAt(item, 2) ?? fail();
        const flat = list(item[7]);
        if (flat.length % 2 !== 0) fail();
        const children: { name: string; kind: EntryKind }[] = [];
        for (let at = 0; at < flat.length; at += 2)
          children.push({ name: text(flat[at]), kind: placeIn(KIND_LIST, flat[at + 1]) });
        directories.set(path, { path, identity, children });
      } else fail();
    }
    if (shared === undefined) return undefined;
    return { source, directories, skills, diagnostics: [], readCount: 0, listCount: 0 };
  } catch {
    return undefined;
  }
}
