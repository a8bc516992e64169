import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/commands.js';
import { CODES } from '../src/codes.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('the docs tell the truth', () => {
  it('docs/diagnostics.md is the catalogue, as generated', async () => {
    // @ts-expect-error the script is plain JavaScript
    const { renderDiagnosticsDoc } = await import('../scripts/diagnostics-doc.mjs');
    expect(read('docs/diagnostics.md')).toBe(renderDiagnosticsDoc());
    for (const code of Object.keys(CODES))
      expect(read('docs/diagnostics.md')).toContain(`\`${code}\``);
  });

  it('the README documents every command and the quick start', () => {
    const readme = read('README.md');
    expect(readme).toMatch(/## Quick start/);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    for (const command of COMMANDS) expect(readme).toContain(`skillhost ${command.name}`);
  });

  it('ARCHITECTURE.md maps every source folder', () => {
    const map = read('ARCHITECTURE.md');
    const folders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    expect(folders.length).toBeGreaterThan(5);
    // Each folder has its row in the table: | `src/NAME/` | role | public API |
    const rows = map.split('\n').filter((line) => line.startsWith('| `src/'));
    const mapped = rows.map((line) => line.slice(3, line.indexOf('`', 3)));
    expect(folders.filter((folder) => !mapped.includes(folder))).toEqual([]);
  });
});
