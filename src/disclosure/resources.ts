import type { ReadProblem, SkillFileSystem } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { cleanText } from '../format/characters.js';
import { decodeSkillText } from '../format/text.js';
import { baseName } from '../paths.js';
import { quote } from '../quote.js';
import type { RegistryEntry } from '../registry/registry.js';
import { suggest, withSuggestions } from '../suggest.js';
import { listSkillFiles } from './activation.js';

export const DEFAULT_MAX_RESOURCE_BYTES = 1024 * 1024;
const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

export interface ResourceOptions {
  /** Largest file returned, in bytes (default 1 MiB), enforced while reading. */
  readonly maxBytes?: number;
  /** Binary files: returned as base64 with a media type (default), or refused. */
  readonly binary?: 'base64' | 'refuse';
}

export type ResourceContent =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'binary'; readonly base64: string };

export interface SkillResource {
  /** The skill's address (`name@source`). */
  readonly skill: string;
  /** The normalised relative path. */
  readonly path: string;
  readonly size: number;
  readonly mediaType: string;
  /**
   * Text as a model may read it: control characters (other than tab and line breaks) and
   * invisible or bidirectional-control characters are removed; `removedCharacters` counts them.
   */
  readonly content: ResourceContent;
  /** Characters removed from a text file (present only when some were). */
  readonly removedCharacters?: number;
}

export type PathCheck =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Accepts only a plain relative POSIX path that cannot name anything outside the skill by
 * itself: no `..`, no absolute, `~`, backslash, drive-letter or `%`-escaped forms, no NUL or
 * control characters, bounded in length. A leading `./` is allowed and dropped.
 */
export function checkResourcePath(requested: string): PathCheck {
  if (typeof requested !== 'string' || requested === '')
    return { ok: false, reason: 'the path is empty' };
  if (requested.length > MAX_PATH_LENGTH)
    return { ok: false, reason: `the path is longer than ${MAX_PATH_LENGTH} characters` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(requested))
    return { ok: false, reason: 'the path holds NUL or control characters' };
  if (requested.includes('\\')) return { ok: false, reason: 'backslashes are not allowed; use /' };
  if (requested.startsWith('/')) return { ok: false, reason: 'absolute paths are not allowed' };
  if (requested.startsWith('~'))
    return { ok: false, reason: 'home-relative paths are not allowed' };
  if (/^[A-Za-z]:/.test(requested)) return { ok: false, reason: 'drive letters are not allowed' };
  if (/%[0-9A-Fa-f]{2}/.test(requested))
    return { ok: false, reason: '%-escaped characters are not allowed' };
  const segments = requested.split('/');
  const kept: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment === '..') return { ok: false, reason: '.. segments are not allowed' };
    if (segment === '.' && index === 0) continue;
    if (segment === '' || segment === '.')
      return { ok: false, reason: 'empty or . segments are not allowed' };
    if (segment.length > MAX_SEGMENT_LENGTH)
      return { ok: false, reason: 'a path segment is too long' };
    kept.push(segment);
  }
  if (kept.length === 0) return { ok: false, reason: 'the path names the skill directory itself' };
  return { ok: true, path: kept.join('/') };
}

const mediaTypes: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  html: 'text/html',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  wasm: 'application/wasm',
  ttf: 'font/ttf',
  woff2: 'font/woff2',
};

/** A media type from the file name's extension. */
export function mediaTypeOf(path: string, binary: boolean): string {
  const dot = path.lastIndexOf('.');
  const extension = dot === -1 ? '' : path.slice(dot + 1).toLowerCase();
  return mediaTypes[extension] ?? (binary ? 'application/octet-stream' : 'text/plain');
}

const problemCodes = {
  missing: 'RESOURCE_NOT_FOUND',
  'not-regular': 'RESOURCE_NOT_REGULAR',
  'symlink-escape': 'RESOURCE_OUTSIDE_SKILL',
  'symlink-broken': 'RESOURCE_NOT_FOUND',
  'too-large': 'RESOURCE_TOO_LARGE',
  unreadable: 'RESOURCE_UNREADABLE',
} as const satisfies Record<ReadProblem, string>;

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/** Files looked at for "did you mean": enough for any real skill, bounded for a hostile one. */
const SUGGESTION_FILES = 1000;

/**
 * The skill's files a missing path may have meant: the same path in another case (a body that
 * says FORMS.md for a file forms.md), a close spelling, or the same file name in another folder.
 */
function nearbyPaths(fs: SkillFileSystem, entry: RegistryEntry, path: string): string[] {
  const { files } = listSkillFiles(fs, entry.directory, SUGGESTION_FILES, 6);
  const paths = files.filter((file) => file.kind !== 'directory').map((file) => file.path);
  const close = suggest(path, paths);
  if (close.length > 0) return close;
  const name = baseName(path).toLowerCase();
  return paths.filter((candidate) => baseName(candidate).toLowerCase() === name).slice(0, 3);
}

/**
 * L3: reads one file of a skill. The path is checked, then opened inside the skill directory
 * and verified to be the regular file that was checked; the size cap holds while reading. An
 * untrusted skill's file with other hard links is refused. Errors never carry file content. Text
 * comes without control or hidden characters (`cleanText`).
 */
export function readSkillResource(
  fs: SkillFileSystem,
  entry: RegistryEntry,
  requested: string,
  options: ResourceOptions = {},
): SkillResource {
  const check = checkResourcePath(requested);
  const shown = quote(requested);
  if (!check.ok) {
    throw new SkillhostError(
      'RESOURCE_PATH_INVALID',
      `Resource path ${shown} of ${entry.address} is refused: ${check.reason}`,
      {
        details: { skill: entry.address },
      },
    );
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const read = fs.readFileWithin(entry.directory, check.path, { maxBytes });
  if (!read.ok) {
    const suggestions = read.problem === 'missing' ? nearbyPaths(fs, entry, check.path) : [];
    throw new SkillhostError(
      problemCodes[read.problem],
      withSuggestions(`Resource ${shown} of ${entry.address}: ${read.message}`, suggestions),
      {
        details: {
          skill: entry.address,
          path: check.path,
          ...(suggestions.length > 0 ? { suggestions } : {}),
        },
      },
    );
  }
  if (entry.source.trust === 'untrusted' && read.status.links > 1) {
    throw new SkillhostError(
      'RESOURCE_HARD_LINK',
      `Resource ${shown} of ${entry.address} has ${read.status.links} hard links and the skill is untrusted; it was not read`,
      { details: { skill: entry.address, path: check.path } },
    );
  }
  const decoded = decodeSkillText(read.bytes, check.path);
  const binary = decoded.text === undefined;
  if (binary && options.binary === 'refuse') {
    throw new SkillhostError(
      'RESOURCE_BINARY_REFUSED',
      `Resource ${shown} of ${entry.address} is binary`,
      {
        details: { skill: entry.address, path: check.path },
      },
    );
  }
  const base = {
    skill: entry.address,
    path: check.path,
    size: read.bytes.length,
    mediaType: mediaTypeOf(check.path, binary),
  };
  if (binary) return { ...base, content: { kind: 'binary', base64: base64(read.bytes) } };
  // A file read as text goes to a model (or a terminal): nothing in it may hide or rewrite.
  const cleaned = cleanText(decoded.text as string);
  const removed = cleaned.control.count + cleaned.hidden.count;
  return {
    ...base,
    content: { kind: 'text', text: cleaned.text },
    ...(removed === 0 ? {} : { removedCharacters: removed }),
  };
}
