import { describe, expect, it } from 'vitest';
import { entryJson, entryJsonText } from '../../src/cli/commands/list.js';
import type { RegistryEntry } from '../../src/registry/entries.js';

const base: RegistryEntry = {
  name: 'pdf',
  address: 'pdf@user',
  source: { id: 'user', kind: 'user', root: '/h/skills', trust: 'trusted', enabled: true },
  directory: '/h/skills/pdf',
  realDirectory: '/h/skills/pdf',
  skillFile: '/h/skills/pdf/SKILL.md',
  status: 'active',
  metadata: { name: 'pdf', description: 'Reads "PDF" files.\nUse when\u2028asked.', metadata: {} },
  diagnostics: [],
  identity: undefined,
  links: 1,
};

describe('list --json items', () => {
  it('writes each entry as the indented document writes entryJson', () => {
    const entries: Array<[RegistryEntry, 'locked' | 'modified' | undefined]> = [
      [base, undefined],
      [base, 'modified'],
      [{ ...base, metadata: undefined, status: 'skipped' }, undefined],
      [
        { ...base, metadata: { name: 'other\u0000name', description: 'd', metadata: {} } },
        'locked',
      ],
      [{ ...base, status: 'shadowed', shadowedBy: 'pdf@project', identical: false }, undefined],
      [{ ...base, status: 'shadowed', shadowedBy: 'pdf@project', identical: true }, undefined],
      [
        {
          ...base,
          name: 'p\u202edf',
          diagnostics: [
            {
              code: 'SKILL_SHADOWED',
              severity: 'warning',
              message: 'two\nlines "quoted"',
              file: '/h/skills/pdf/SKILL.md',
              line: 2,
              column: 7,
            },
            {
              code: 'NAME_DIRECTORY_MISMATCH',
              severity: 'info',
              message: 'x',
              file: '/h/skills/pdf/SKILL.md',
              line: 0,
              column: 0,
            },
          ],
        },
        undefined,
      ],
    ];
    const items = entries.map(([entry, lock]) => entryJson(entry, lock));
    const expected = JSON.stringify({ skills: items, summary: {} }, null, 2);
    const streamed = `{\n  "skills": [\n    ${entries.map(([entry, lock]) => entryJsonText(entry, lock)).join(',\n    ')}\n  ],\n  "summary": {}\n}`;
    expect(streamed).toBe(expected);
  });
});
