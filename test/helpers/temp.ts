import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
