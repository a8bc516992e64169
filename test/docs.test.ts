import { readFileSync } from 'node:fs';
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
    for (const folder of ['format', 'registry', 'disclosure', 'node', 'cli']) {
      expect(map).toContain(`src/${folder}/`);
    }
  });
});
