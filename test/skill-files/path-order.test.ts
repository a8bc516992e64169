import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateSkillPaths } from '../../src/skill-files/validate-paths.js';
import { walkSkillTree } from '../../src/skill-files/walker.js';
import { createMemoryFileSystem } from '../../src/testing/memory-fs.js';

const skill = (name: string) =>
  `---\nname: ${name}\ndescription: A test skill. Use it in tests.\n---\nBody\n`;

/** Folder names whose prefixes collide with characters on both sides of '/'. */
const segment = fc.constantFrom('a', 'a-b', 'a.b', 'a b', 'a0', 'ab', 'pdf', 'pdf-x', 'x');

describe('walkSkillTree with pathOrder', () => {
  it('finds skills in the order of their paths, whatever the names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.array(segment, { minLength: 1, maxLength: 3 }), {
          maxLength: 12,
          selector: (parts) => parts.join('/'),
        }),
        (paths) => {
          const fs = createMemoryFileSystem();
          fs.write('/root', { kind: 'directory' });
          // A skill is a leaf: drop paths that lie below another skill.
          const skills = paths
            .map((parts) => parts.join('/'))
            .filter((path, _, all) => !all.some((other) => path.startsWith(`${other}/`)));
          for (const path of skills) fs.write(`/root/${path}/SKILL.md`, skill('x'));
          const found: string[] = [];
          walkSkillTree(
            fs,
            '/root',
            { skill: (entry) => found.push(entry.directory), diagnostic: () => {} },
            { pathOrder: true },
          );
          const sorted = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(found).toEqual(sorted);
          expect(found).toHaveLength(skills.length);
        },
      ),
    );
  });
});

describe('validateSkillPaths reading as it walks', () => {
  it('reads each SKILL.md once and lists no skill directory', () => {
    const fs = createMemoryFileSystem();
    for (const name of ['one', 'two', 'three']) {
      fs.write(`/root/${name}/SKILL.md`, skill(name));
      fs.write(`/root/${name}/references/guide.md`, '# Guide\n');
    }
    const report = validateSkillPaths(['/root'], { fs });
    expect(report.summary).toEqual({ skills: 3, valid: 3, invalid: 0, unchecked: 0 });
    // Three skill files, and one try at the root, which holds none.
    expect(fs.stats.reads).toBe(4);
    expect(fs.stats.listings).toBe(1);
  });

  it('on a file system that ignores case, still warns about a skill.md', () => {
    const base = createMemoryFileSystem();
    base.write('/root/lower/skill.md', skill('lower'));
    base.write('/root/upper/SKILL.md', skill('upper'));
    // Opening SKILL.md finds skill.md, as on a case-insensitive volume.
    const fold = (path: string) => path.replace(/\/SKILL\.md$/, '/skill.md');
    const insensitive = {
      ...base,
      status: (path: string, follow: boolean) =>
        base.status(path, follow) ??
        base.status(path.replace(/\/skill\.md$/, '/SKILL.md'), follow) ??
        base.status(fold(path), follow),
      readFileWithin: (root: string, relative: string, options: { maxBytes: number }) => {
        const direct = base.readFileWithin(root, relative, options);
        return direct.ok || relative !== 'SKILL.md'
          ? direct
          : base.readFileWithin(root, 'skill.md', options);
      },
    };
    const report = validateSkillPaths(['/root'], { fs: insensitive });
    const lower = report.results.find((result) => result.path === '/root/lower');
    expect(lower?.diagnostics.map((diagnostic) => diagnostic.code)).toContain(
      'SKILL_FILE_LOWERCASE',
    );
  });
});

describe('validateSkillPaths over a file system that is a class instance', () => {
  it('calls its methods, as a spread copy of it would lose them', () => {
    const memory = createMemoryFileSystem();
    memory.write('/root/one/SKILL.md', skill('one'));
    class Wrapped {
      listDirectory(path: string) {
        return memory.listDirectory(path);
      }
      status(path: string, follow: boolean) {
        return memory.status(path, follow);
      }
      realPath(path: string) {
        return memory.realPath(path);
      }
      readFileWithin(root: string, relative: string, options: { maxBytes: number }) {
        return memory.readFileWithin(root, relative, options);
      }
    }
    const report = validateSkillPaths(['/root'], { fs: new Wrapped() });
    expect(report.summary).toEqual({ skills: 1, valid: 1, invalid: 0, unchecked: 0 });
  });
});
