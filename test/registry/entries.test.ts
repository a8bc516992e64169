import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import type { SkillRecord } from '../../src/registry/discover.js';
import {
  type Candidate,
  type EntryRules,
  type RegistryEntry,
  resolveEntries,
} from '../../src/registry/entries.js';
import { diffEntries, patchEntries } from '../../src/registry/refresh.js';
import type { SkillSource, SourceKind } from '../../src/registry/sources.js';

// Everything here is plain objects: the collision rules need no file system.

function source(id: string, kind: SourceKind, enabled = true): SkillSource {
  return { id, kind, root: `/${id}`, trust: enabled ? 'trusted' : 'untrusted', enabled };
}

function record(
  directory: string,
  name: string | undefined,
  options: { real?: string; inode?: number; diagnostics?: Diagnostic[] } = {},
): SkillRecord {
  return {
    directory,
    realDirectory: options.real ?? directory,
    skillFileName: 'SKILL.md',
    identity: { device: 1, inode: options.inode ?? 1, size: 10, mtimeMs: 1, ctimeMs: 1 },
    links: 1,
    metadata:
      name === undefined ? undefined : { name, description: `${name} things`, metadata: {} },
    diagnostics: options.diagnostics ?? [],
  };
}

const user = source('user', 'user');
const project = source('project', 'project');
const explicit = source('mine', 'explicit');
const untrusted = source('theirs', 'project', false);
const sources = [user, project, explicit, untrusted];

function rules(identical: EntryRules['identical'] = () => false): EntryRules {
  return { sources, precedence: ['explicit', 'project', 'user', 'external'], identical };
}

function summary(entries: readonly RegistryEntry[]) {
  return entries.map((entry) => [entry.address, entry.status, entry.shadowedBy ?? null]);
}

describe('resolveEntries: candidates and precedence to entries', () => {
  it('orders by precedence: the kind first, then the source order; the rest are shadowed', () => {
    const candidates: Candidate[] = [
      { record: record('/user/pdf', 'pdf'), source: user },
      { record: record('/mine/pdf', 'pdf'), source: explicit },
      { record: record('/project/pdf', 'pdf'), source: project },
      { record: record('/user/csv', 'csv'), source: user },
    ];
    const table = resolveEntries(candidates, rules());
    expect(summary(table.entries)).toEqual([
      ['csv@user', 'active', null],
      ['pdf@mine', 'active', null],
      ['pdf@project', 'shadowed', 'pdf@mine'],
      ['pdf@user', 'shadowed', 'pdf@mine'],
    ]);
    expect([...table.active.keys()]).toEqual(['csv', 'pdf']);
    expect(table.byAddress.get('pdf@user')?.diagnostics.map((d) => d.code)).toEqual([
      'SKILL_SHADOWED',
    ]);
  });

  it('collapses identical copies: the same real directory, or equal content', () => {
    const asked: string[] = [];
    const identical: EntryRules['identical'] = (winner, copy) => {
      asked.push(`${winner.skillFile} ${copy.skillFile}`);
      return copy.directory === '/user/pdf';
    };
    const table = resolveEntries(
      [
        { record: record('/mine/pdf', 'pdf'), source: explicit },
        { record: record('/project/pdf', 'pdf', { real: '/mine/pdf' }), source: project },
        { record: record('/user/pdf', 'pdf'), source: user },
      ],
      rules(identical),
    );
    expect(table.entries.map((entry) => [entry.address, entry.identical])).toEqual([
      ['pdf@mine', undefined],
      ['pdf@project', true],
      ['pdf@user', true],
    ]);
    expect(table.entries[1]?.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['SKILL_DUPLICATE', 'info'],
    ]);
    // Only the copy with another real directory needed its content compared.
    expect(asked).toEqual(['/mine/pdf/SKILL.md /user/pdf/SKILL.md']);
  });

  it('never lets an unusable or untrusted copy win; it keeps its own status', () => {
    const table = resolveEntries(
      [
        { record: record('/mine/pdf', undefined), source: explicit },
        { record: record('/theirs/pdf', 'pdf'), source: untrusted },
        { record: record('/user/pdf', 'pdf'), source: user },
      ],
      rules(),
    );
    expect(summary(table.entries)).toEqual([
      ['pdf@mine', 'skipped', null],
      ['pdf@theirs', 'untrusted', null],
      ['pdf@user', 'active', null],
    ]);
  });

  it('knows a skill by its directory: a copy claiming another name neither takes nor shadows it', () => {
    const table = resolveEntries(
      [
        { record: record('/mine/zzz-other', 'pdf'), source: explicit },
        { record: record('/user/pdf', 'pdf'), source: user },
        { record: record('/user/a-copy', 'pdf'), source: user },
      ],
      rules(),
    );
    expect(summary(table.entries)).toEqual([
      ['a-copy@user', 'active', null],
      ['pdf@user', 'active', null],
      ['zzz-other@mine', 'active', null],
    ]);
    expect(table.active.get('pdf')?.directory).toBe('/user/pdf');
    expect(table.active.get('zzz-other')?.metadata?.name).toBe('pdf');
  });

  it('prefers, within one source, the copy whose SKILL.md claims its name; numbers the rest', () => {
    const table = resolveEntries(
      [
        { record: record('/user/a/pdf', 'other'), source: user },
        { record: record('/user/b/pdf', 'pdf'), source: user },
        { record: record('/user/c/pdf', 'third'), source: user },
      ],
      rules(),
    );
    expect(summary(table.entries)).toEqual([
      ['pdf@user', 'active', null],
      ['pdf@user#2', 'shadowed', 'pdf@user'],
      ['pdf@user#3', 'shadowed', 'pdf@user'],
    ]);
    expect(table.entries.map((entry) => entry.directory)).toEqual([
      '/user/b/pdf',
      '/user/a/pdf',
      '/user/c/pdf',
    ]);
  });

  it('flags look-alike active names, not the plain original', () => {
    const table = resolveEntries(
      [
        { record: record('/user/pdf', 'pdf'), source: user },
        { record: record('/mine/рdf', 'рdf'), source: explicit },
      ],
      rules(),
    );
    expect(table.foreignNames).toBe(true);
    expect(table.active.get('рdf')?.diagnostics.map((d) => d.code)).toEqual(['NAME_CONFUSABLE']);
    expect(table.active.get('pdf')?.diagnostics).toEqual([]);
  });

  it('keeps the entries of a group whose members are the very same objects', () => {
    const pdf = { record: record('/user/pdf', 'pdf'), source: user };
    const csv = { record: record('/user/csv', 'csv'), source: user };
    const first = resolveEntries([pdf, csv], rules());
    const csvAgain = { record: record('/user/csv', 'csv', { inode: 2 }), source: user };
    const second = resolveEntries([pdf, csvAgain], rules(), first.groups);
    expect(second.active.get('pdf')).toBe(first.active.get('pdf'));
    expect(second.active.get('csv')).not.toBe(first.active.get('csv'));
    expect(diffEntries(first.entries, second.entries)).toEqual({
      added: [],
      removed: [],
      changed: [second.active.get('csv')],
    });
  });
});

describe('patchEntries: one changed file rebuilds one group', () => {
  it('rebuilds only the group of a re-read record, and says what changed', () => {
    const pdf = record('/user/pdf', 'pdf');
    const csv = record('/user/csv', 'csv');
    const table = resolveEntries(
      [
        { record: pdf, source: user },
        { record: csv, source: user },
      ],
      rules(),
    );
    const untouched = table.active.get('csv');
    const after = record('/user/pdf', 'pdf', { inode: 9 });
    const patched = patchEntries(table, [{ before: pdf, after }], rules());
    expect(patched?.changes.changed.map((entry) => entry.identity?.inode)).toEqual([9]);
    expect(patched?.table.active.get('csv')).toBe(untouched);
    expect(patched?.table.entries.map((entry) => entry.address)).toEqual(['csv@user', 'pdf@user']);
  });

  it('patches a group whose SKILL.md claims a new name: the entry keeps its directory’s name', () => {
    const pdf = record('/user/pdf', 'pdf');
    const table = resolveEntries([{ record: pdf, source: user }], rules());
    const renamed = record('/user/pdf', 'pdf-tools', { inode: 2 });
    const patched = patchEntries(table, [{ before: pdf, after: renamed }], rules());
    expect(patched?.table.active.get('pdf')?.metadata?.name).toBe('pdf-tools');
    expect(patched?.table.active.has('pdf-tools')).toBe(false);
    expect(patched?.changes.changed.map((entry) => entry.address)).toEqual(['pdf@user']);
  });
});

describe('the table’s maps', () => {
  /** What the maps must hold, from the entries alone. */
  function expectMapsOfEntries(table: {
    readonly entries: readonly RegistryEntry[];
    readonly byAddress: ReadonlyMap<string, RegistryEntry>;
    readonly active: ReadonlyMap<string, RegistryEntry>;
  }) {
    const active = table.entries.filter((entry) => entry.status === 'active');
    expect([...table.active.values()]).toEqual(active);
    expect([...table.active.keys()]).toEqual(active.map((entry) => entry.name));
    expect(table.byAddress.size).toBe(table.entries.length);
    for (const entry of table.entries) expect(table.byAddress.get(entry.address)).toBe(entry);
  }

  it('agree with the entries, look-alikes flagged and groups patched, whenever first asked for', () => {
    const names = ['pdf', 'рdf', 'csv', 'Csv', 'docs'];
    const candidate = fc.record({
      name: fc.constantFrom(...names),
      source: fc.constantFrom(user, project, explicit, untrusted),
      usable: fc.boolean(),
      claims: fc.constantFrom(undefined, 'other'),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(candidate, {
          minLength: 1,
          maxLength: 8,
          selector: (item) => `${item.source.id}/${item.name}`,
        }),
        fc.nat(),
        fc.boolean(),
        (drawn, pick, askFirst) => {
          const candidates: Candidate[] = drawn.map((item) => ({
            record: record(
              `${item.source.root}/${item.name}`,
              item.usable ? (item.claims ?? item.name) : undefined,
            ),
            source: item.source,
          }));
          const table = resolveEntries(candidates, rules());
          // Asked for before a patch, or only after it.
          if (askFirst) expectMapsOfEntries(table);
          const before = (candidates[pick % candidates.length] as Candidate).record;
          const after = { ...before, identity: { ...before.identity, inode: 99 } } as SkillRecord;
          const patched = patchEntries(table, [{ before, after }], rules());
          if (patched !== undefined) expectMapsOfEntries(patched.table);
          else expectMapsOfEntries(table);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('resolveEntries: grouping', () => {
  it('gives the same entries whatever order the candidates come in, by name then precedence', () => {
    const names = ['pdf', 'pdf-tools', 'csv', 'a', 'b-c'];
    const drawn = fc.uniqueArray(
      fc.record({
        name: fc.constantFrom(...names),
        source: fc.constantFrom(user, project, explicit, untrusted),
        usable: fc.boolean(),
      }),
      { minLength: 1, maxLength: 10, selector: (item) => `${item.source.id}/${item.name}` },
    );
    fc.assert(
      fc.property(drawn, fc.func(fc.integer()), (items, key) => {
        const candidates: Candidate[] = items.map((item) => ({
          record: record(`${item.source.root}/${item.name}`, item.usable ? item.name : undefined),
          source: item.source,
        }));
        const shuffled = candidates
          .map((candidate, place) => ({ candidate, key: key(place) }))
          .sort((a, b) => a.key - b.key)
          .map(({ candidate }) => candidate);
        const table = resolveEntries(candidates, rules());
        expect(summary(resolveEntries(shuffled, rules()).entries)).toEqual(summary(table.entries));
        const entryNames = table.entries.map((entry) => entry.name);
        expect(entryNames).toEqual([...entryNames].sort());
        expect(table.entries.length).toBe(candidates.length);
        // Within a name, at most one active copy, and it comes first among the usable ones.
        for (const name of new Set(entryNames)) {
          const group = table.entries.filter((entry) => entry.name === name);
          expect(group.filter((entry) => entry.status === 'active').length).toBeLessThanOrEqual(1);
          const firstUsable = group.find(
            (entry) => entry.status === 'active' || entry.status === 'shadowed',
          );
          if (firstUsable !== undefined) expect(firstUsable.status).toBe('active');
        }
      }),
      { numRuns: 300 },
    );
  });
});
