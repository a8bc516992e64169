import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the script is plain JavaScript
import { publicEntries, renderApiReports } from '../scripts/api-report.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Entry {
  readonly entry: string;
  readonly name: string;
}

describe('the API report', () => {
  const reports = renderApiReports() as Record<string, string>;

  it('matches the checked-in report of every public entry (npm run api:update after a deliberate change)', () => {
    for (const { name } of publicEntries() as Entry[]) {
      const checkedIn = readFileSync(join(root, 'api', `${name}.api.txt`), 'utf8');
      expect(reports[name], `api/${name}.api.txt`).toBe(checkedIn);
    }
  });

  it('lists as values exactly what each built entry exports at run time', async () => {
    for (const { entry, name } of publicEntries() as Entry[]) {
      const module = await import(entry === '.' ? 'skillhost' : `skillhost/${entry.slice(2)}`);
      const values = (reports[name] ?? '')
        .split('\n')
        .filter((line) => line.startsWith('value '))
        .map((line) => line.slice('value '.length));
      expect(Object.keys(module).sort(), name).toEqual(values.sort());
    }
  });
});
