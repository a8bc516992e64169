import {
  accessSync,
  constants,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, resolve } from 'node:path';
import { SkillhostError } from '../../errors.js';
import { skillhostBin } from '../../node/self.js';

/** Reads a text file; undefined when there is none, a coded error naming it when it cannot. */
export function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new SkillhostError('CLIENT_CONFIG_INVALID', `Cannot read ${path}`, {
      cause: error,
      details: { path },
    });
  }
}

/**
 * Writes a text file atomically (a temporary file beside it, then a rename), through a link to
 * the file it points at (a dotfiles manager's link stays a link), keeping an existing file's
 * mode; a new file gets `mode`, and its folders are made.
 */
export function writeTextFile(path: string, text: string, mode: number): void {
  let target = path;
  let keptMode = mode;
  try {
    target = realpathSync(path);
    keptMode = statSync(target).mode & 0o777;
  } catch {
    // A new file.
  }
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: keptMode });
  renameSync(temporary, target);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * How a client should start this installation's CLI: `skillhost` when that name on PATH is this
 * very bin, else the absolute path of the running node and of this bin (never `npx`: the
 * package name on a registry may belong to someone else).
 */
export function selfCommand(): { readonly command: string; readonly args: readonly string[] } {
  const bin = realOrSelf(skillhostBin());
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = resolve(folder, 'skillhost');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (realOrSelf(candidate) === bin) return { command: 'skillhost', args: [] };
    // The first skillhost on PATH is another one: name this one by its paths.
    break;
  }
  return { command: process.execPath, args: [bin] };
}

/**
 * Opens an address in the user's browser, with the system's opener (`xdg-open`, `open`, or
 * `start` on Windows), not waiting for the browser; rejects when the opener cannot be started.
 */
export function openUrl(url: string): Promise<void> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  // Loaded here: only `ui` opens a browser, and child_process costs every other command.
  const { spawn } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args as string[], { detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
