import {
  closeSync,
  constants,
  type Dirent,
  existsSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ScriptWorkspace } from '../deps.js';
import { SkillhostError } from '../errors.js';
import { describeKind } from '../read-results.js';
import type {
  WorkspaceEntry,
  WorkspaceFailure,
  WorkspaceFileIdentity,
  WorkspaceFiles,
  WorkspaceListResult,
  WorkspaceProblem,
  WorkspaceReadResult,
  WorkspaceWriteResult,
} from '../workspace-deps.js';
import { isInside, kindOfDirent, kindOfStats, readBounded } from './fs.js';
import { isSecretName, NOT_SEARCHED, normaliseExposed } from './sandbox-view.js';
import { normaliseProtectedPath, PROTECTED_WORKSPACE_PATHS } from './sandbox-workspace.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;
const WRITE_FLAGS = constants.O_WRONLY | NOFOLLOW | NONBLOCK;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
/** Folders a recursive listing does not enter unless it starts in them. */
const NOT_ENTERED: ReadonlySet<string> = new Set(['.git', ...NOT_SEARCHED]);

const fail = (problem: WorkspaceProblem, message: string): WorkspaceFailure => ({
  ok: false,
  problem,
  message,
});

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : 'EUNKNOWN';
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Where an open descriptor leads, or undefined where /proc cannot say. */
function openedPath(fd: number): string | undefined {
  try {
    return existsSync('/proc/self/fd') ? readlinkSync(`/proc/self/fd/${fd}`) : undefined;
  } catch {
    return undefined;
  }
}

function identityOf(stats: Stats): WorkspaceFileIdentity {
  return { device: stats.dev, inode: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

function sameIdentity(a: WorkspaceFileIdentity, b: WorkspaceFileIdentity): boolean {
  return (
    a.device === b.device && a.inode === b.inode && a.size === b.size && a.mtimeMs === b.mtimeMs
  );
}

/** The path's segments: the host checked it already; this refuses anything but plain names again. */
function segmentsOf(path: string): string[] | WorkspaceFailure {
  if (path === '') return [];
  const segments = path.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('\u0000'))
      return fail('outside', `${JSON.stringify(path)} is not a plain path inside the workspace`);
  }
  return segments;
}

/**
 * The workspace as the host tools see it (`WorkspaceFiles`): confined to its real path, the
 * files that commonly hold secrets hidden as the sandbox hides them (`expose` shows some), and
 * writes only to a writable workspace, never to its protected paths (`.git` anywhere, agent and
 * editor folders, `.envrc`, `protect`), through a symbolic link, or to a file with other links.
 *
 * @example const files = createWorkspaceFiles({ path: '/work/repo', writable: false });
 */
export function createWorkspaceFiles(workspace: ScriptWorkspace): WorkspaceFiles {
  let root: string;
  try {
    root = realpathSync.native(workspace.path);
  } catch {
    throw new SkillhostError('PATH_NOT_FOUND', `The workspace ${workspace.path} does not exist`);
  }
  if (lstatOrUndefined(root)?.isDirectory() !== true)
    throw new SkillhostError('PATH_UNREADABLE', `The workspace ${workspace.path} is not a folder`);
  const exposed = new Set(normaliseExposed(workspace.expose ?? [], root));
  const protectedPaths = [
    ...PROTECTED_WORKSPACE_PATHS.map((entry) => entry.path),
    ...(workspace.protect ?? []).map((path) => normaliseProtectedPath(path, root)),
  ];

  /** Whether a path (segments relative to the root) is, or is inside, a hidden secret. */
  const secret = (segments: readonly string[]): boolean =>
    segments.some(
      (name, index) =>
        isSecretName(name, index === 0 ? '' : (segments[index - 1] as string)) &&
        !exposed.has(segments.slice(0, index + 1).join('/')),
    );
  const hiddenMessage = (path: string) =>
    `${JSON.stringify(path)} is hidden: files like it commonly hold secrets (the user can show it with --expose ${path})`;

  /** The real path of a workspace path, checked to stay inside and not to be a secret. */
  const resolveInside = (path: string): { real: string; relative: string } | WorkspaceFailure => {
    const segments = segmentsOf(path);
    if (!Array.isArray(segments)) return segments;
    if (secret(segments)) return fail('secret', hiddenMessage(path));
    let real: string;
    try {
      real = realpathSync.native(join(root, ...segments));
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR')
        return lstatOrUndefined(join(root, ...segments))?.isSymbolicLink() === true
          ? fail('missing', `${JSON.stringify(path)} is a symbolic link that leads nowhere`)
          : fail('missing', `No such file or folder: ${JSON.stringify(path)}`);
      if (code === 'ELOOP')
        return fail('unreadable', `${JSON.stringify(path)}: symbolic links in a loop`);
      return fail('unreadable', `${JSON.stringify(path)}: cannot be reached (${code})`);
    }
    if (!isInside(root, real))
      return fail(
        'outside',
        `${JSON.stringify(path)} leads outside the workspace (through a symbolic link); it was not opened`,
      );
    const inside = real === root ? '' : real.slice(root.length + 1);
    if (inside !== '' && secret(inside.split('/'))) return fail('secret', hiddenMessage(inside));
    return { real, relative: inside };
  };

  const read = (path: string, options: { readonly maxBytes: number }): WorkspaceReadResult => {
    const resolved = resolveInside(path);
    if ('ok' in resolved) return resolved;
    let fd: number;
    try {
      fd = openSync(resolved.real, READ_FLAGS);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENXIO') return fail('not-regular', `${JSON.stringify(path)} is a socket`);
      if (code === 'ELOOP' || code === 'ENOENT')
        return fail('changed', `${JSON.stringify(path)} changed while it was opened`);
      return fail('unreadable', `${JSON.stringify(path)}: permission denied (${code})`);
    }
    try {
      // What was opened must be what was checked: a path swapped in between is caught here.
      const opened = openedPath(fd);
      if (opened !== undefined && opened !== resolved.real)
        return fail('changed', `${JSON.stringify(path)} changed while it was opened; not read`);
      const stats = fstatSync(fd);
      if (!stats.isFile())
        return fail(
          'not-regular',
          `${JSON.stringify(path)} is ${describeKind(kindOfStats(stats))}`,
        );
      const { bytes, over } = readBounded(fd, stats.size, options.maxBytes);
      return {
        ok: true,
        bytes,
        size: Math.max(stats.size, bytes.length),
        partial: over,
        identity: identityOf(stats),
      };
    } catch (error) {
      return fail('unreadable', `${JSON.stringify(path)}: ${errorCode(error)}`);
    } finally {
      closeSync(fd);
    }
  };

  const list = (
    path: string,
    options: { readonly maxEntries: number; readonly depth: number },
  ): WorkspaceListResult => {
    const resolved = resolveInside(path);
    if ('ok' in resolved) return resolved;
    if (lstatOrUndefined(resolved.real)?.isDirectory() !== true)
      return fail('not-directory', `${JSON.stringify(path)} is not a folder`);
    const entries: WorkspaceEntry[] = [];
    let hidden = 0;
    let truncated = false;
    const visit = (folder: string, prefix: string, parent: string, level: number): void => {
      let found: Dirent[];
      try {
        found = readdirSync(folder, { withFileTypes: true });
      } catch {
        return;
      }
      found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of found) {
        if (truncated) return;
        const at = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
        if (isSecretName(entry.name, parent) && !exposed.has(at)) {
          hidden += 1;
          continue;
        }
        if (entries.length >= options.maxEntries) {
          truncated = true;
          return;
        }
        const full = join(folder, entry.name);
        const kind = kindOfDirent(entry);
        const size = kind === 'file' ? (lstatOrUndefined(full)?.size ?? 0) : 0;
        entries.push({ path: at, kind, size });
        if (
          kind === 'directory' &&
          level < options.depth &&
          !NOT_ENTERED.has(entry.name) &&
          // Entered only while it is still a folder, not a link put in its place.
          lstatOrUndefined(full)?.isDirectory() === true
        )
          visit(full, at, entry.name, level + 1);
      }
    };
    const segments = resolved.relative === '' ? [] : resolved.relative.split('/');
    visit(resolved.real, path, segments.at(-1) ?? '', 1);
    return { ok: true, entries, hidden, truncated };
  };

  /**
   * Where a write to `path` would go, checked (read-only workspace, protected paths, secrets,
   * links and non-folders on the way, then the target itself); with `create`, the missing
   * folders on the way are made.
   */
  const writeTarget = (
    path: string,
    create: boolean,
  ): { target: string; before: Stats | undefined } | WorkspaceFailure => {
    if (!workspace.writable)
      return fail(
        'read-only',
        `The workspace is read-only; ${JSON.stringify(path)} was not written`,
      );
    const segments = segmentsOf(path);
    if (!Array.isArray(segments)) return segments;
    if (segments.length === 0) return fail('not-regular', 'The workspace itself is not a file');
    const joined = segments.join('/');
    const guarded = protectedPaths.find(
      (guard) => joined === guard || joined.startsWith(`${guard}/`),
    );
    if (guarded !== undefined || segments.includes('.git'))
      return fail(
        'protected',
        `${JSON.stringify(path)} is under a protected path (${guarded ?? '.git'}): the host tools never write there`,
      );
    if (secret(segments)) return fail('secret', hiddenMessage(path));
    let folder = root;
    let missing = false;
    for (const segment of segments.slice(0, -1)) {
      const next = join(folder, segment);
      const status = missing ? undefined : lstatOrUndefined(next);
      if (status === undefined) {
        missing = true;
        if (create) {
          try {
            mkdirSync(next);
          } catch (error) {
            return fail(
              'unreadable',
              `Cannot make the folder ${JSON.stringify(segment)} (${errorCode(error)})`,
            );
          }
        }
      } else if (status.isSymbolicLink())
        return fail(
          'symlink',
          `${JSON.stringify(segment)} on the way to ${JSON.stringify(path)} is a symbolic link; writes never go through links`,
        );
      else if (!status.isDirectory())
        return fail(
          'not-directory',
          `${JSON.stringify(segment)} on the way to ${JSON.stringify(path)} is not a folder`,
        );
      folder = next;
    }
    const target = join(folder, segments.at(-1) as string);
    const before = missing && !create ? undefined : lstatOrUndefined(target);
    if (before !== undefined) {
      if (before.isSymbolicLink())
        return fail(
          'symlink',
          `${JSON.stringify(path)} is a symbolic link; writes never go through links`,
        );
      if (!before.isFile())
        return fail(
          'not-regular',
          `${JSON.stringify(path)} is ${describeKind(kindOfStats(before))}`,
        );
      if (before.nlink > 1)
        return fail(
          'linked',
          `${JSON.stringify(path)} has other hard links (writing it would change another file too)`,
        );
    }
    return { target, before };
  };

  const checkWrite = (path: string): WorkspaceFailure | undefined => {
    const checked = writeTarget(path, false);
    return 'ok' in checked ? checked : undefined;
  };

  const write = (
    path: string,
    bytes: Uint8Array,
    options: { readonly expect?: WorkspaceFileIdentity },
  ): WorkspaceWriteResult => {
    const checked = writeTarget(path, true);
    if ('ok' in checked) return checked;
    const { target, before } = checked;
    const expect = options.expect;
    if (expect !== undefined && (before === undefined || !sameIdentity(identityOf(before), expect)))
      return fail('changed', `${JSON.stringify(path)} changed since it was read; read it again`);
    let fd: number;
    try {
      fd = openSync(target, before === undefined ? CREATE_FLAGS : WRITE_FLAGS, 0o666);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST' || code === 'ELOOP' || code === 'ENOENT')
        return fail('changed', `${JSON.stringify(path)} changed while it was opened; not written`);
      return fail('unreadable', `${JSON.stringify(path)} cannot be written (${code})`);
    }
    try {
      const opened = openedPath(fd);
      if (opened !== undefined && opened !== target)
        return fail('changed', `${JSON.stringify(path)} changed while it was opened; not written`);
      const status = fstatSync(fd);
      if (!status.isFile() || status.nlink > 1)
        return fail('changed', `${JSON.stringify(path)} changed while it was opened; not written`);
      if (before !== undefined && (status.ino !== before.ino || status.dev !== before.dev))
        return fail('changed', `${JSON.stringify(path)} changed while it was opened; not written`);
      if (expect !== undefined && !sameIdentity(identityOf(status), expect))
        return fail('changed', `${JSON.stringify(path)} changed since it was read; read it again`);
      ftruncateSync(fd, 0);
      let written = 0;
      while (written < bytes.length)
        written += writeSync(fd, bytes, written, bytes.length - written, written);
      return { ok: true, created: before === undefined, bytes: written };
    } catch (error) {
      return fail(
        'unreadable',
        `${JSON.stringify(path)} could not be written (${errorCode(error)})`,
      );
    } finally {
      closeSync(fd);
    }
  };

  return { root, writable: workspace.writable, read, list, checkWrite, write };
}
