import { symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheStore } from '../../src/deps.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { sha256 } from '../../src/node/hash.js';
import { SkillRegistry } from '../../src/registry/registry.js';
import { defaultSources, isProjectTrusted, type SkillSource } from '../../src/registry/sources.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

const fs = createNodeFileSystem();

function source(
  id: string,
  kind: SkillSource['kind'],
  root: string,
  trust: SkillSource['trust'] = 'trusted',
  enabled = true,
): SkillSource {
  return { id, kind, root, trust, enabled };
}

function memoryCache(): CacheStore & { data: Map<string, string>; saves: number } {
  const data = new Map<string, string>();
  const store = {
    data,
    saves: 0,
    load: (key: string) => data.get(key),
    save: (key: string, text: string) => {
      store.saves += 1;
      data.set(key, text);
    },
  };
  return store;
}

describe('sources', () => {
  it('builds project, user, explicit and external sources with unique ids', () => {
    const sources = defaultSources({
      projectDir: '/p',
      projectTrusted: false,
      homeDir: '/h',
      explicit: [{ root: '/e', trust: 'trusted' }],
      external: ['/x1', '/x2'],
    });
    expect(sources.map((s) => [s.id, s.root, s.trust, s.enabled])).toEqual([
      ['explicit', '/e', 'trusted', true],
      ['project', '/p/.agents/skills', 'untrusted', false],
      ['project-skillhost', '/p/.skillhost/skills', 'untrusted', false],
      ['project-claude', '/p/.claude/skills', 'untrusted', false],
      ['project-github', '/p/.github/skills', 'untrusted', false],
      ['project-gemini', '/p/.gemini/skills', 'untrusted', false],
      ['user', '/h/.agents/skills', 'trusted', true],
      ['user-skillhost', '/h/.skillhost/skills', 'trusted', true],
      ['user-claude', '/h/.claude/skills', 'trusted', true],
      ['user-copilot', '/h/.copilot/skills', 'trusted', true],
      ['user-gemini', '/h/.gemini/skills', 'trusted', true],
      ['user-codex', '/h/.codex/skills', 'trusted', true],
      ['external', '/x1', 'untrusted', true],
      ['external-2', '/x2', 'untrusted', true],
    ]);
    expect(defaultSources({ projectDir: '/p', homeDir: '/h', noDefaults: true })).toEqual([]);
  });

  it('trusts a folder and what lies below it, nothing else', () => {
    expect(isProjectTrusted('/work/repo', ['/work/repo'])).toBe(true);
    expect(isProjectTrusted('/work/repo/sub', ['/work/repo'])).toBe(true);
    expect(isProjectTrusted('/work/repo-evil', ['/work/repo'])).toBe(false);
    expect(isProjectTrusted('/work', ['/work/repo'])).toBe(false);
  });
});

describe('SkillRegistry', () => {
  it('discovers skills at the metadata level, sorted, lenient, one broken skill not stopping the rest', () => {
    const root = tempDir();
    writeSkill(root, 'beta');
    writeSkill(join(root, 'group'), 'alpha');
    writeTree(root, {
      'Upper/SKILL.md': skillText('name: Upper\ndescription: Loads with a warning.'),
      'broken/SKILL.md': skillText('name: broken'),
      'beta/nested/SKILL.md': skillText('name: nested\ndescription: not discovered inside a skill'),
    });
    const registry = SkillRegistry.open({ fs, sources: [source('explicit', 'explicit', root)] });
    expect(registry.entries.map((e) => [e.name, e.status])).toEqual([
      ['Upper', 'active'],
      ['alpha', 'active'],
      ['beta', 'active'],
      ['broken', 'skipped'],
    ]);
    expect(registry.resolve('Upper')?.diagnostics.map((d) => d.code)).toEqual([
      'NAME_NOT_LOWERCASE',
    ]);
    expect(registry.resolve('broken')).toBeUndefined();
    expect(registry.resolve('broken@explicit')?.diagnostics.map((d) => d.code)).toEqual([
      'DESCRIPTION_MISSING',
    ]);
  });

  it('resolves collisions by precedence and keeps every copy addressable', () => {
    const project = tempDir();
    const user = tempDir();
    const external = tempDir();
    writeSkill(project, 'pdf');
    writeTree(user, { 'pdf/SKILL.md': skillText('name: pdf\ndescription: The user copy.') });
    writeTree(external, {
      'pdf/SKILL.md': skillText('name: pdf\ndescription: An untrusted copy.'),
    });
    const registry = SkillRegistry.open({
      fs,
      hash: sha256,
      sources: [
        source('external', 'external', external, 'untrusted'),
        source('user', 'user', user),
        source('project', 'project', project),
      ],
    });
    expect(registry.resolve('pdf')?.address).toBe('pdf@project');
    const user_ = registry.resolve('pdf@user');
    expect(user_).toMatchObject({
      status: 'shadowed',
      shadowedBy: 'pdf@project',
      identical: false,
    });
    expect(user_?.diagnostics.map((d) => d.code)).toEqual(['SKILL_SHADOWED']);
    expect(registry.resolve('pdf@external')?.status).toBe('shadowed');
    const reversed = SkillRegistry.open({
      fs,
      sources: [source('user', 'user', user), source('project', 'project', project)],
      precedence: ['user', 'project'],
    });
    expect(reversed.resolve('pdf')?.address).toBe('pdf@user');
  });

  it('never lets an untrusted copy shadow a trusted one', () => {
    const trusted = tempDir();
    const untrusted = tempDir();
    writeSkill(trusted, 'deploy');
    writeSkill(untrusted, 'deploy');
    const registry = SkillRegistry.open({
      fs,
      sources: [
        source('external', 'external', untrusted, 'untrusted'),
        source('user', 'user', trusted),
      ],
    });
    expect(registry.resolve('deploy')?.source.id).toBe('user');
  });

  it('collapses identical copies and reports them as such', () => {
    const a = tempDir();
    const b = tempDir();
    writeSkill(a, 'same');
    writeSkill(b, 'same');
    const registry = SkillRegistry.open({
      fs,
      hash: sha256,
      sources: [source('project', 'project', a), source('user', 'user', b)],
    });
    const copy = registry.resolve('same@user');
    expect(copy).toMatchObject({ status: 'shadowed', identical: true });
    expect(copy?.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['SKILL_DUPLICATE', 'info'],
    ]);
  });

  it('lists the skills of an untrusted project but never offers them', () => {
    const project = tempDir();
    writeSkill(project, 'proj');
    const registry = SkillRegistry.open({
      fs,
      sources: [source('project', 'project', project, 'untrusted', false)],
    });
    expect(registry.entries.map((e) => e.status)).toEqual(['untrusted']);
    expect(registry.active()).toEqual([]);
    expect(registry.resolve('proj')).toBeUndefined();
  });

  it('knows a skill by its folder: a folder claiming another skill’s name cannot take it', () => {
    const higher = tempDir();
    const lower = tempDir();
    writeSkill(lower, 'alpha');
    writeTree(higher, {
      'zzz-other/SKILL.md': skillText('name: alpha\ndescription: Claims another name.'),
    });
    const registry = SkillRegistry.open({
      fs,
      sources: [source('explicit', 'explicit', higher), source('user', 'user', lower)],
    });
    expect(registry.resolve('alpha')?.directory).toBe(join(lower, 'alpha'));
    expect(registry.resolve('alpha')?.status).toBe('active');
    expect(registry.resolve('alpha@explicit')).toBeUndefined();
    const impostor = registry.resolve('zzz-other');
    expect(impostor).toMatchObject({ name: 'zzz-other', status: 'active' });
    expect(impostor?.metadata?.name).toBe('alpha');
    const mismatch = impostor?.diagnostics.find((d) => d.code === 'NAME_DIRECTORY_MISMATCH');
    expect(mismatch?.severity).toBe('warning');
    expect(mismatch?.message).toContain("'alpha'");
    expect(mismatch?.message).toContain("'zzz-other'");
    expect(registry.entries.every((entry) => entry.status !== 'shadowed')).toBe(true);
  });

  it('warns about look-alike names', () => {
    const root = tempDir();
    writeSkill(root, 'pdf');
    writeTree(root, { 'рdf/SKILL.md': skillText('name: рdf\ndescription: Cyrillic р.') });
    const registry = SkillRegistry.open({ fs, sources: [source('explicit', 'explicit', root)] });
    expect(registry.resolve('рdf')?.diagnostics.map((d) => d.code)).toContain('NAME_CONFUSABLE');
    expect(registry.resolve('pdf')?.diagnostics.map((d) => d.code)).not.toContain(
      'NAME_CONFUSABLE',
    );
  });

  it('follows a linked skill directory only when asked, deduplicating by real path', () => {
    const root = tempDir();
    const elsewhere = tempDir();
    writeSkill(elsewhere, 'linked');
    symlinkSync(join(elsewhere, 'linked'), join(root, 'linked'));
    expect(
      SkillRegistry.open({ fs, sources: [source('explicit', 'explicit', root)] }).entries,
    ).toEqual([]);
    const followed = SkillRegistry.open({
      fs,
      sources: [source('explicit', 'explicit', root), source('user', 'user', elsewhere)],
      discovery: { followSymlinks: true },
    });
    expect(followed.resolve('linked')?.address).toBe('linked@explicit');
    expect(followed.resolve('linked@user')).toMatchObject({ status: 'shadowed', identical: true });
  });

  it('refreshes incrementally: only changed skill files are read again', () => {
    const root = tempDir();
    for (let index = 0; index < 20; index += 1) writeSkill(root, `s${index}`);
    const registry = SkillRegistry.open({ fs, sources: [source('explicit', 'explicit', root)] });
    expect(registry.stats.read).toBe(20);
    expect(registry.refresh()).toEqual({ added: [], removed: [], changed: [] });
    expect(registry.stats).toMatchObject({ read: 0, reused: 20 });
    writeFileSync(join(root, 's3', 'SKILL.md'), skillText('name: s3\ndescription: Changed.'));
    writeSkill(root, 'new-one');
    unlinkSync(join(root, 's5', 'SKILL.md'));
    const changes = registry.refresh();
    expect(changes.added.map((e) => e.name)).toEqual(['new-one']);
    expect(changes.removed.map((e) => e.name)).toEqual(['s5']);
    expect(changes.changed.map((e) => e.name)).toEqual(['s3']);
    expect(registry.resolve('s3')?.metadata?.description).toBe('Changed.');
    expect(registry.stats.read).toBe(2);
  });

  it('notices a change that keeps the size and the modification time', () => {
    const root = tempDir();
    writeSkill(root, 'same-size');
    const file = join(root, 'same-size', 'SKILL.md');
    const registry = SkillRegistry.open({ fs, sources: [source('explicit', 'explicit', root)] });
    writeFileSync(
      file,
      skillText('name: same-size\ndescription: Does same-size thingz. Use when asked.'),
    );
    utimesSync(
      file,
      new Date(registry.resolve('same-size')?.identity?.mtimeMs ?? 0),
      new Date(registry.resolve('same-size')?.identity?.mtimeMs ?? 0),
    );
    registry.refresh();
    expect(registry.resolve('same-size')?.metadata?.description).toContain('thingz');
  });

  it('keeps a persistent index: a warm start reads no unchanged file, a changed one is read again', () => {
    const root = tempDir();
    for (let index = 0; index < 10; index += 1) writeSkill(root, `s${index}`);
    const cache = memoryCache();
    const sources = [source('explicit', 'explicit', root)];
    expect(SkillRegistry.open({ fs, sources, cache }).stats).toMatchObject({
      read: 10,
      cachedSources: 0,
    });
    const warm = SkillRegistry.open({ fs, sources, cache });
    expect(warm.stats).toMatchObject({ read: 0, reused: 10, cachedSources: 1 });
    expect(warm.active().map((e) => e.name)).toHaveLength(10);
    writeFileSync(join(root, 's1', 'SKILL.md'), skillText('name: s1\ndescription: New text.'));
    const after = SkillRegistry.open({ fs, sources, cache });
    expect(after.stats.read).toBe(1);
    expect(after.resolve('s1')?.metadata?.description).toBe('New text.');
  });

  it('opens from the index unchecked with indexFirst; the first refresh checks every file', () => {
    const root = tempDir();
    for (let index = 0; index < 5; index += 1) writeSkill(root, `s${index}`);
    const cache = memoryCache();
    const sources = [source('explicit', 'explicit', root)];
    SkillRegistry.open({ fs, sources, cache });
    writeFileSync(join(root, 's1', 'SKILL.md'), skillText('name: s1\ndescription: New text.'));
    writeSkill(root, 's9');
    const quick = SkillRegistry.open({ fs, sources, cache, indexFirst: true });
    // As the index was saved: nothing read, the change not seen yet.
    expect(quick.stats).toMatchObject({ read: 0, reused: 5, cachedSources: 1 });
    expect(quick.resolve('s1')?.metadata?.description).not.toBe('New text.');
    expect(quick.resolve('s9')).toBeUndefined();
    const changes = quick.refresh();
    expect(changes.added.map((entry) => entry.name)).toEqual(['s9']);
    expect(quick.resolve('s1')?.metadata?.description).toBe('New text.');
    // Without an index, indexFirst scans as usual.
    const fresh = SkillRegistry.open({ fs, sources, indexFirst: true });
    expect(fresh.active()).toHaveLength(6);
  });

  it('ignores a corrupt or foreign index entry', () => {
    const root = tempDir();
    writeSkill(root, 'one');
    const cache = memoryCache();
    const sources = [source('explicit', 'explicit', root)];
    SkillRegistry.open({ fs, sources, cache });
    for (const key of cache.data.keys())
      cache.data.set(key, '{"format":"skillhost-index/3","key":"x"');
    expect(SkillRegistry.open({ fs, sources, cache }).stats).toMatchObject({
      read: 1,
      cachedSources: 0,
    });
    for (const key of cache.data.keys()) {
      const forged = JSON.parse(
        JSON.stringify({
          format: 'skillhost-index/3',
          key,
          root,
          directories: [['/etc', [1, 2, 3, 4, 5], [], null]],
          skills: [['/etc', '/etc', 'SKILL.md', null, 1, { evil: true }, []]],
        }),
      );
      cache.data.set(key, JSON.stringify(forged));
    }
    const registry = SkillRegistry.open({ fs, sources, cache });
    expect(registry.entries.map((e) => e.name)).toEqual(['one']);
  });
});

describe('skills the user switched off, and skills installed from elsewhere', () => {
  it('lists every copy of a disabled name as disabled and offers none of them', () => {
    const project = tempDir();
    const user = tempDir();
    writeSkill(project, 'pdf');
    writeSkill(user, 'pdf');
    writeSkill(user, 'other');
    const registry = SkillRegistry.open({
      fs,
      sources: [source('project', 'project', project), source('user', 'user', user)],
      disabled: ['pdf'],
    });
    expect(registry.entries.map((entry) => [entry.address, entry.status])).toEqual([
      ['other@user', 'active'],
      ['pdf@project', 'disabled'],
      ['pdf@user', 'disabled'],
    ]);
    expect(registry.active().map((entry) => entry.name)).toEqual(['other']);
    expect(registry.resolve('pdf')).toBeUndefined();
  });

  it('makes an externally installed skill untrusted in a trusted source, and only that skill', () => {
    const project = tempDir();
    const installed = writeSkill(project, 'from-git');
    writeSkill(project, 'mine');
    const registry = SkillRegistry.open({
      fs,
      sources: [source('project', 'project', project)],
      externalSkills: [installed],
    });
    const external = registry.resolve('from-git');
    expect(external?.status).toBe('active');
    expect(external?.source).toMatchObject({ id: 'project', kind: 'project', trust: 'untrusted' });
    expect(registry.resolve('mine')?.source.trust).toBe('trusted');
    // A folder given marks every skill below it.
    const all = SkillRegistry.open({
      fs,
      sources: [source('project', 'project', project)],
      externalSkills: [project],
    });
    expect(all.entries.map((entry) => entry.source.trust)).toEqual(['untrusted', 'untrusted']);
  });
});
