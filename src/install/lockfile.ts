import type { ContentHasher } from '../deps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics.js';
import { isValidSkillFolderName } from './names.js';
import { archiveFormat, checkRef, checkSubpath, type InstallSource } from './source.js';

/** The lockfile's name, at a project's root (project skills) or in `$SKILLHOST_HOME` (user skills). */
export const LOCKFILE_NAME = 'skills-lock.json';
export const LOCKFILE_VERSION = 1;

/** One installed skill, as the lockfile records it. */
export interface LockedSkill {
  /** Where it came from. */
  readonly source: InstallSource;
  /** For a git source: the commit the ref resolved to. */
  readonly commit?: string;
  /** For an archive: `sha256:` and the SHA-256 of the archive's bytes. */
  readonly digest?: string;
  /** The skill's folder in the source, from the source's root (`.` when the root is the skill). */
  readonly path: string;
  /** Every file of the installed folder (POSIX path relative to it) and the SHA-256 of its bytes. */
  readonly files: Readonly<Record<string, string>>;
}

export interface Lockfile {
  readonly version: typeof LOCKFILE_VERSION;
  /** By skill name (its folder's name). */
  readonly skills: Readonly<Record<string, LockedSkill>>;
}

export interface ParsedLockfile {
  /** The valid entries (an invalid one is left out with a diagnostic); undefined when the file is unusable. */
  readonly lockfile: Lockfile | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

const HEX = /^[0-9a-f]{64}$/;
const COMMIT = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;

export function emptyLockfile(): Lockfile {
  return { version: LOCKFILE_VERSION, skills: {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSafeRelative(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    !/\p{Cc}/u.test(path) &&
    path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

/** Reads a source object of the lockfile, or says what is wrong with it. */
function readSource(value: unknown): InstallSource | string {
  if (!isRecord(value)) return 'must be an object with a "type"';
  const optional = (key: string): string | undefined | null => {
    const item = value[key];
    return item === undefined ? undefined : typeof item === 'string' ? item : null;
  };
  const subpath = optional('subpath');
  if (subpath === null) return '"subpath" must be a string';
  let checkedSubpath: string | undefined;
  try {
    checkedSubpath = subpath === undefined ? undefined : checkSubpath(subpath, subpath);
  } catch {
    return '"subpath" must be a plain relative path';
  }
  const withSubpath = checkedSubpath === undefined ? {} : { subpath: checkedSubpath };
  switch (value.type) {
    case 'folder': {
      const path = optional('path');
      return typeof path === 'string' && path !== ''
        ? { type: 'folder', path }
        : '"path" must be a non-empty string';
    }
    case 'git': {
      const url = optional('url');
      const ref = optional('ref');
      if (typeof url !== 'string' || url === '' || url.startsWith('-') || url.includes('::'))
        return '"url" must be a git URL';
      if (ref === null) return '"ref" must be a string';
      if (ref !== undefined) {
        try {
          checkRef(ref, url);
        } catch {
          return '"ref" must be a branch, tag or commit name';
        }
      }
      if (value.submodules !== undefined && typeof value.submodules !== 'boolean')
        return '"submodules" must be true or false';
      return {
        type: 'git',
        url,
        ...(ref === undefined ? {} : { ref }),
        ...withSubpath,
        ...(value.submodules === true ? { submodules: true } : {}),
      };
    }
    case 'archive': {
      const location = optional('location');
      if (typeof location !== 'string' || archiveFormat(location) === undefined)
        return '"location" must name a .tar.gz, .tgz or .zip file or URL';
      return { type: 'archive', location, ...withSubpath };
    }
    default:
      return '"type" must be folder, git or archive';
  }
}

/** Reads one entry of `skills`, or says which field is wrong. */
function readEntry(value: unknown): LockedSkill | string {
  if (!isRecord(value)) return 'must be an object';
  const source = readSource(value.source);
  if (typeof source === 'string') return `source: ${source}`;
  const { commit, digest, path, files } = value;
  if (source.type === 'git' && (typeof commit !== 'string' || !COMMIT.test(commit)))
    return 'commit: must be the full commit id the ref resolved to';
  if (source.type !== 'git' && commit !== undefined) return 'commit: only a git source has one';
  if (
    source.type === 'archive' &&
    (typeof digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(digest))
  )
    return 'digest: must be "sha256:" and 64 hex digits';
  if (source.type !== 'archive' && digest !== undefined) return 'digest: only an archive has one';
  if (typeof path !== 'string' || (path !== '.' && !isSafeRelative(path)))
    return 'path: must be "." or a plain relative path';
  if (!isRecord(files) || Object.keys(files).length === 0)
    return 'files: must map each file to its SHA-256';
  for (const [file, hash] of Object.entries(files)) {
    if (!isSafeRelative(file)) return `files: ${JSON.stringify(file)} is not a plain relative path`;
    if (typeof hash !== 'string' || !HEX.test(hash))
      return `files[${JSON.stringify(file)}]: must be a SHA-256 in lower-case hex`;
  }
  return {
    source,
    ...(typeof commit === 'string' ? { commit } : {}),
    ...(typeof digest === 'string' ? { digest } : {}),
    path,
    files: Object.fromEntries(Object.entries(files) as Array<[string, string]>),
  };
}

/**
 * Parses a lockfile. A file that is not JSON, or not a version skillhost reads, is unusable
 * (an error); an entry with a bad field is left out with an error naming the skill and the field,
 * and the other entries are kept.
 */
export function parseLockfile(text: string, file: string): ParsedLockfile {
  const unusable = (message: string): ParsedLockfile => ({
    lockfile: undefined,
    diagnostics: [createDiagnostic('LOCKFILE_INVALID', 'error', message, file)],
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return unusable(`Not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(value) || value.version !== LOCKFILE_VERSION || !isRecord(value.skills))
    return unusable(`Expected {"version": ${LOCKFILE_VERSION}, "skills": {...}}`);
  const diagnostics: Diagnostic[] = [];
  const skills: Record<string, LockedSkill> = {};
  for (const [name, item] of Object.entries(value.skills)) {
    if (!isValidSkillFolderName(name)) {
      diagnostics.push(
        createDiagnostic(
          'LOCKFILE_INVALID',
          'error',
          `skills[${JSON.stringify(name)}]: not a skill name`,
          file,
        ),
      );
      continue;
    }
    const entry = readEntry(item);
    if (typeof entry === 'string') {
      diagnostics.push(
        createDiagnostic(
          'LOCKFILE_INVALID',
          'error',
          `skills[${JSON.stringify(name)}].${entry}`,
          file,
        ),
      );
      continue;
    }
    skills[name] = entry;
  }
  return { lockfile: { version: LOCKFILE_VERSION, skills }, diagnostics };
}

function sortedObject<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const sorted: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key] as T;
  return sorted;
}

/** The lockfile as text: keys sorted, two-space indents, a final newline (stable diffs). */
export function serializeLockfile(lockfile: Lockfile): string {
  const skills: Record<string, unknown> = {};
  for (const name of Object.keys(lockfile.skills).sort()) {
    const entry = lockfile.skills[name] as LockedSkill;
    skills[name] = {
      source: entry.source,
      ...(entry.commit === undefined ? {} : { commit: entry.commit }),
      ...(entry.digest === undefined ? {} : { digest: entry.digest }),
      path: entry.path,
      files: sortedObject(entry.files),
    };
  }
  return `${JSON.stringify({ version: LOCKFILE_VERSION, skills }, null, 2)}\n`;
}

/** The lockfile with `name` set to `entry` (or removed, with undefined). */
export function withLockedSkill(
  lockfile: Lockfile,
  name: string,
  entry: LockedSkill | undefined,
): Lockfile {
  const skills = { ...lockfile.skills };
  if (entry === undefined) delete skills[name];
  else skills[name] = entry;
  return { version: LOCKFILE_VERSION, skills };
}

/** How a folder's files differ from what was recorded (each list sorted). */
export interface FileDifferences {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export function compareFiles(
  recorded: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
): FileDifferences {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  for (const [path, hash] of Object.entries(actual)) {
    const before = recorded[path];
    if (before === undefined) added.push(path);
    else if (before !== hash) changed.push(path);
  }
  for (const path of Object.keys(recorded)) if (actual[path] === undefined) removed.push(path);
  return { added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}

export function hasDifferences(differences: FileDifferences): boolean {
  return differences.added.length + differences.removed.length + differences.changed.length > 0;
}

/**
 * One digest for a whole folder: SHA-256 over `HASH  PATH` lines in path order (what
 * `sha256sum` prints). The audit log records it, and trust in an installed skill is bound to it.
 */
export function treeDigest(files: Readonly<Record<string, string>>, hash: ContentHasher): string {
  const text = Object.keys(files)
    .sort()
    .map((path) => `${files[path]}  ${path}\n`)
    .join('');
  return hash(new TextEncoder().encode(text));
}
