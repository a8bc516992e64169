import type { Code } from '../codes.js';
import { CODES } from '../codes.js';
import type { EntryKind } from '../deps.js';
import type { Diagnostic, Severity } from '../diagnostics.js';
import type { SkillMetadata } from '../format/load.js';
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
 * The persistent index: one JSON document per source, so a warm start reads no SKILL.md whose
 * identity is unchanged. Everything in it is checked against the file system before use, and
 * anything malformed makes the whole entry be ignored: deleting the cache is always safe.
 */
const FORMAT = 'skillhost-index/3';

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

function identityJson(identity: FileIdentity | undefined): Json {
  return identity === undefined
    ? null
    : [identity.device, identity.inode, identity.size, identity.mtimeMs, identity.ctimeMs];
}

function metadataJson(metadata: SkillMetadata | undefined): Json {
  if (metadata === undefined) return null;
  return {
    name: metadata.name,
    description: metadata.description,
    license: metadata.license ?? null,
    compatibility: metadata.compatibility ?? null,
    allowedTools: metadata.allowedTools ?? null,
    metadata: { ...metadata.metadata },
  };
}

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

/**
 * One line of JSON per record, after a header line: decoding then parses one small line at a
 * time instead of building one large tree, which keeps a warm start's memory flat.
 */
export function encodeScan(scan: SourceScan, key: string): string {
  const lines = [JSON.stringify({ format: FORMAT, key, root: scan.source.root })];
  for (const record of scan.directories.values()) {
    lines.push(
      JSON.stringify([
        'd',
        record.path,
        identityJson(record.identity),
        record.children.map((child) => [child.name, child.kind]),
      ]),
    );
  }
  for (const record of scan.skills.values()) {
    lines.push(
      JSON.stringify([
        's',
        record.directory,
        record.realDirectory === record.directory ? null : record.realDirectory,
        record.skillFileName,
        identityJson(record.identity),
        record.links,
        metadataJson(record.metadata),
        record.diagnostics.map(diagnosticJson),
      ]),
    );
  }
  return lines.join('\n');
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

const kinds = new Set<EntryKind>([
  'file',
  'directory',
  'symlink',
  'fifo',
  'socket',
  'device',
  'other',
]);
const severities = new Set<Severity>(['error', 'warning', 'info']);

function kind(value: unknown): EntryKind {
  return kinds.has(value as EntryKind) ? (value as EntryKind) : fail();
}

function identityFrom(value: unknown): FileIdentity | undefined {
  if (value === null) return undefined;
  const [device, inode, size, mtimeMs, ctimeMs] = list(value);
  return {
    device: finite(device),
    inode: finite(inode),
    size: finite(size),
    mtimeMs: finite(mtimeMs),
    ctimeMs: finite(ctimeMs),
  };
}

function optionalText(value: unknown): string | undefined {
  return value === null ? undefined : text(value);
}

/** The metadata as the registry keeps it (compacted), from its JSON, every field checked. */
function metadataFrom(value: unknown, strings: StringTable): SkillMetadata | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || value === null) fail();
  const record = value as Record<string, unknown>;
  const raw = record.metadata;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail();
  const map = raw as Record<string, unknown>;
  for (const key of Object.keys(map)) if (typeof map[key] !== 'string') fail();
  return strings.compactFields(
    text(record.name),
    text(record.description),
    optionalText(record.license),
    optionalText(record.compatibility),
    optionalText(record.allowedTools),
    map as Record<string, string>,
  );
}

function diagnosticFrom(value: unknown): Diagnostic {
  const [code, severity, message, file, line, column] = list(value);
  if (typeof code !== 'string' || !Object.hasOwn(CODES, code)) fail();
  if (!severities.has(severity as Severity)) fail();
  return {
    code: code as Code,
    severity: severity as Severity,
    message: text(message),
    file: text(file),
    line: finite(line),
    column: finite(column),
  };
}

/**
 * Reads a cached scan of `source`, or undefined when the text is not a well-formed entry for it.
 * Recurring strings are kept once in the registry's table.
 */
export function decodeScan(
  cached: string,
  source: SkillSource,
  key: string,
  strings: StringTable,
): SourceScan | undefined {
  try {
    let start = cached.indexOf('\n');
    const header = JSON.parse(start === -1 ? cached : cached.slice(0, start)) as Record<
      string,
      unknown
    >;
    if (header.format !== FORMAT || header.key !== key || header.root !== source.root)
      return undefined;
    const directories = new Map<string, DirectoryRecord>();
    const skills = new Map<string, SkillRecord>();
    while (start !== -1) {
      const end = cached.indexOf('\n', start + 1);
      const item = list(JSON.parse(cached.slice(start + 1, end === -1 ? undefined : end)));
      start = end;
      if (item[0] === 'd') {
        const [, path, identity, children] = item;
        const parsedIdentity = identityFrom(identity);
        if (parsedIdentity === undefined) fail();
        const childList = list(children).map((child) => {
          const [name, childKind] = list(child);
          return { name: text(name), kind: kind(childKind) };
        });
        directories.set(text(path), {
          path: text(path),
          identity: parsedIdentity,
          children: childList,
        });
      } else if (item[0] === 's') {
        const [, directory, realDirectory, skillFileName, identity, links, metadata, diagnostics] =
          item;
        const path = text(directory);
        const found = list(diagnostics);
        const record: SkillRecord = {
          directory: path,
          realDirectory: realDirectory === null ? path : text(realDirectory),
          skillFileName: strings.intern(text(skillFileName)),
          identity: identityFrom(identity),
          links: finite(links),
          metadata: metadataFrom(metadata, strings),
          diagnostics: found.length === 0 ? noDiagnostics : found.map(diagnosticFrom),
        };
        skills.set(path, record);
      } else fail();
    }
    return { source, directories, skills, diagnostics: [], readCount: 0, listCount: 0 };
  } catch {
    return undefined;
  }
}
