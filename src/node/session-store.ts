import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { SkillhostError } from '../core.js';

/** One saved session, as `sessions list` shows it. */
export interface SessionFileInfo {
  readonly id: string;
  readonly path: string;
  readonly size: number;
  readonly modified: Date;
}

/** Agent sessions as JSON Lines files in one folder (`$SKILLHOST_HOME/sessions`), readable by the user alone. */
export interface SessionStore {
  readonly directory: string;
  /** Appends lines to the session's log, creating it (mode 0600, folder 0700); never through a link. */
  append(id: string, lines: readonly string[]): void;
  /** The session's log, or undefined when there is none. */
  read(id: string): string | undefined;
  /** Every session, newest first. */
  list(): SessionFileInfo[];
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Whether a text can be a session id (never a path). */
export function isSessionId(id: string): boolean {
  return ID.test(id);
}

function pathOf(directory: string, id: string): string {
  if (!isSessionId(id))
    throw new SkillhostError(
      'SESSION_NOT_FOUND',
      `${JSON.stringify(id.slice(0, 200))} is not a session id`,
    );
  return join(directory, `${id}.jsonl`);
}

export function createSessionStore(directory: string): SessionStore {
  return {
    directory,
    append(id, lines) {
      if (lines.length === 0) return;
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      const fd = openSync(
        pathOf(directory, id),
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
        0o600,
      );
      try {
        if (!fstatSync(fd).isFile())
          throw new Error(`${pathOf(directory, id)} is not a regular file`);
        writeSync(fd, lines.map((line) => `${line}\n`).join(''));
      } finally {
        closeSync(fd);
      }
    },
    read(id) {
      const path = pathOf(directory, id);
      try {
        const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
        try {
          if (!fstatSync(fd).isFile()) return undefined;
          return readFileSync(fd, 'utf8');
        } finally {
          closeSync(fd);
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOENT' || code === 'ELOOP') return undefined;
        throw error;
      }
    },
    list() {
      let names: string[];
      try {
        names = readdirSync(directory);
      } catch {
        return [];
      }
      const found: SessionFileInfo[] = [];
      for (const name of names) {
        if (!name.endsWith('.jsonl')) continue;
        const id = name.slice(0, -'.jsonl'.length);
        if (!isSessionId(id)) continue;
        try {
          const status = statSync(join(directory, name));
          if (!status.isFile()) continue;
          found.push({
            id,
            path: join(directory, name),
            size: status.size,
            modified: status.mtime,
          });
        } catch {
          // Removed meanwhile.
        }
      }
      return found.sort(
        (a, b) => b.modified.getTime() - a.modified.getTime() || a.id.localeCompare(b.id),
      );
    },
  };
}

/**
 * Reads a file that holds secrets (API keys) only when no one but its owner can read or write
 * it and it is not a link; undefined when it does not exist.
 */
export function readPrivateFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new SkillhostError(
      'CONFIG_INVALID',
      `Cannot read ${path}: it must be a regular file, not a link`,
    );
  }
  try {
    const status = fstatSync(fd);
    if (
      !status.isFile() ||
      (status.mode & 0o077) !== 0 ||
      (typeof process.getuid === 'function' && status.uid !== process.getuid())
    )
      throw new SkillhostError(
        'CONFIG_INVALID',
        `${path} holds keys but others can read it, or it is not yours: chmod 600 ${path}`,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
