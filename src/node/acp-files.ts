import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  realpathSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { SkillhostError } from '../core.js';
import type { CliWorkspace } from '../internal.js';
import { createNodeFileSystem, isInside } from './fs.js';
import { isSecretName } from './sandbox-view.js';
import { PROTECTED_WORKSPACE_PATHS } from './sandbox-workspace.js';

/**
 * The file requests an ACP agent sends its client (`fs/read_text_file`, `fs/write_text_file`),
 * served by the workspace's rules: only inside the workspace (real paths, links that lead out
 * refused), never a file that commonly holds secrets, reads through the safe-read routine and
 * capped, writes only to a writable workspace and never to the folders that configure tools and
 * agents (`.git`, `.claude`, `.gemini`, `.vscode`, …), never through a link.
 */

/** The largest file read or written for an agent. */
export const MAX_AGENT_FILE_BYTES = 4 * 1024 * 1024;

const refuse = (message: string) => new SkillhostError('CLI_AGENT_REQUEST_REFUSED', message);

const files = createNodeFileSystem();

export interface WorkspaceFiles {
  read(path: string, line?: number | null, limit?: number | null): string;
  write(path: string, content: string): void;
}

function parts(path: string): string[] {
  return path.split(sep).filter((part) => part !== '');
}

/** The path relative to the workspace; refused outside it, or when it names a secret. */
function inside(root: string, path: string, action: string): string {
  if (!isAbsolute(path)) throw refuse(`${action} ${path}: the agent must give an absolute path`);
  const rel = relative(root, path);
  if (rel === '' || !isInside(root, path))
    throw refuse(`${action} ${path}: it is outside the workspace ${root}`);
  const names = parts(rel);
  names.forEach((name, index) => {
    if (isSecretName(name, names[index - 1] ?? ''))
      throw refuse(`${action} ${path}: files that commonly hold secrets are not given to agents`);
  });
  return names.join('/');
}

export function workspaceFiles(
  workspace: CliWorkspace,
  maxBytes = MAX_AGENT_FILE_BYTES,
): WorkspaceFiles {
  let root: string;
  try {
    root = realpathSync.native(workspace.path);
  } catch {
    throw refuse(`the workspace ${workspace.path} does not exist`);
  }
  return {
    read: (path, line, limit) => {
      const rel = inside(root, path, 'read');
      const result = files.readFileWithin(root, rel, { maxBytes });
      if (!result.ok) throw refuse(`read ${path}: ${result.message}`);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(result.bytes);
      } catch {
        throw refuse(`read ${path}: it is not UTF-8 text`);
      }
      if (text.includes('\u0000')) throw refuse(`read ${path}: it is not text`);
      if (line === undefined && limit === undefined) return text;
      if ((line ?? null) === null && (limit ?? null) === null) return text;
      const lines = text.split('\n');
      const first = Math.max(1, line ?? 1);
      const count = limit === undefined || limit === null ? lines.length : Math.max(0, limit);
      return lines.slice(first - 1, first - 1 + count).join('\n');
    },
    write: (path, content) => {
      if (!workspace.writable)
        throw refuse(`write ${path}: the workspace ${workspace.path} is read-only`);
      const rel = inside(root, path, 'write');
      const protectedPath = PROTECTED_WORKSPACE_PATHS.find(
        (entry) => rel === entry.path || rel.startsWith(`${entry.path}/`),
      );
      if (protectedPath !== undefined)
        throw refuse(
          `write ${path}: ${protectedPath.path} configures tools or agents and is not written by agents`,
        );
      const bytes = Buffer.from(content, 'utf8');
      if (bytes.length > maxBytes)
        throw refuse(`write ${path}: more than the ${maxBytes}-byte limit`);
      let parent: string;
      try {
        parent = realpathSync.native(dirname(path));
      } catch {
        throw refuse(`write ${path}: its folder does not exist`);
      }
      if (!isInside(root, parent))
        throw refuse(`write ${path}: its folder leads outside the workspace`);
      let fd: number;
      try {
        fd = openSync(
          path,
          constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
          0o644,
        );
      } catch (error) {
        throw refuse(`write ${path}: cannot open it (${(error as NodeJS.ErrnoException).code})`);
      }
      try {
        const stats = fstatSync(fd);
        if (!stats.isFile()) throw refuse(`write ${path}: it is not a regular file`);
        // A second name elsewhere would be written through this one.
        if (stats.nlink > 1) throw refuse(`write ${path}: it has other names (hard links)`);
        ftruncateSync(fd, 0);
        let written = 0;
        while (written < bytes.length) written += writeSync(fd, bytes, written);
      } finally {
        closeSync(fd);
      }
    },
  };
}
