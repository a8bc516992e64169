import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

afterEach(() => {
  while (created.length > 0) {
    const path = created.pop() as string;
    rmSync(path, { recursive: true, force: true });
  }
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix = 'skillhost-test-'): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  created.push(path);
  return path;
}

/** Writes files (path relative to root → content) and returns root. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): string {
  for (const [relative, content] of Object.entries(files)) {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return root;
}

/** SKILL.md text with the given frontmatter lines and body. */
export function skillText(frontmatter: string, body = '# Title\n\nDo the thing.\n'): string {
  return `---\n${frontmatter}${frontmatter.endsWith('\n') ? '' : '\n'}---\n${body}`;
}

/** A valid skill directory named `name` under root. */
export function writeSkill(root: string, name: string, extra: Record<string, string> = {}): string {
  writeTree(root, {
    [`${name}/SKILL.md`]: skillText(
      `name: ${name}\ndescription: Does ${name} things. Use when asked.`,
    ),
    ...Object.fromEntries(
      Object.entries(extra).map(([path, content]) => [`${name}/${path}`, content]),
    ),
  });
  return join(root, name);
}

/**
 * A workspace whose files a sandboxed script's user may write: as root, scripts run as the
 * workspace's owner, so everything is given to an ordinary uid; otherwise it is ours already.
 * Without that, a refused write would prove nothing.
 */
export function ownedWorkspace(
  files: Record<string, string>,
  prefix = 'skillhost-workspace-',
): string {
  const path = writeTree(tempDir(prefix), files);
  if (process.getuid?.() === 0) {
    const give = (folder: string) => {
      chownSync(folder, 4321, 4321);
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const child = join(folder, entry.name);
        if (entry.isDirectory()) give(child);
        else if (!entry.isSymbolicLink()) chownSync(child, 4321, 4321);
      }
    };
    give(path);
  }
  chmodSync(path, 0o755);
  return path;
}
