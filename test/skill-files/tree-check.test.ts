import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SkillFileSystem } from '../../src/deps.js';
import type { SkillCheck } from '../../src/skill-files/check.js';
import {
  type TreeCheckHelper,
  type WalkShare,
  walkShare,
} from '../../src/skill-files/tree-check.js';
import { validateSkillPaths } from '../../src/skill-files/validate-paths.js';
import type { WalkOptions } from '../../src/skill-files/walker.js';
import { createMemoryFileSystem } from '../../src/testing/memory-fs.js';

const valid = (name: string) =>
  `---\nname: ${name}\ndescription: A test skill. Use it in tests.\n---\nSee [guide](references/guide.md).\n`;
const broken = '---\nname: [unclosed\n---\nBody\n';

/**
 * A helper thread played in this one: each time this thread claims a share, the helper first
 * claims `steps[call]` shares; it sends what it claimed in reverse order (shares arrive out of
 * order), except the share `lost`, which it claims and never sends (a helper that died).
 */
function playedHelper(
  fs: SkillFileSystem,
  shareSize: number,
  steps: readonly number[],
  lost?: number,
): TreeCheckHelper & { readonly started: () => number; readonly byHelper: () => number } {
  let started = 0;
  let byHelper = 0;
  return {
    shareSize,
    started: () => started,
    byHelper: () => byHelper,
    start: (job) => {
      started += 1;
      const total = Math.ceil(job.children.length / job.shareSize);
      let claimed = 0;
      let calls = 0;
      let closed = false;
      const sent: WalkShare[] = [];
      const helperClaims = (count: number) => {
        const batch: WalkShare[] = [];
        for (let step = 0; step < count && !closed && claimed < total; step += 1) {
          const index = claimed;
          claimed += 1;
          if (index === lost) continue;
          byHelper += 1;
          batch.push(walkShare(fs, job, index));
        }
        sent.push(...batch.reverse());
      };
      return {
        claim: () => {
          helperClaims(steps[calls % steps.length] ?? 0);
          calls += 1;
          if (closed) return total;
          claimed += 1;
          return claimed - 1;
        },
        take: (wait) => {
          if (sent.length === 0 && wait) helperClaims(1);
          return sent.shift();
        },
        close: () => {
          closed = true;
        },
      };
    },
  };
}

interface Folder {
  readonly path: string;
  readonly kind: 'valid' | 'broken' | 'empty' | 'link';
}

const segment = fc.constantFrom('a', 'a-b', 'b', 'c', 'pdf', 'pdf-x', 'x', 'y0');
const folder = fc.record({
  path: fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
  kind: fc.constantFrom<Folder['kind']>('valid', 'valid', 'valid', 'broken', 'empty', 'link'),
});

function tree(folders: readonly Folder[]): SkillFileSystem {
  const fs = createMemoryFileSystem();
  fs.write('/root', { kind: 'directory' });
  // A few top-level folders always, so that there are shares to hand out.
  for (let index = 0; index < 6; index += 1)
    fs.write(`/root/top-${index}/SKILL.md`, valid(`top-${index}`));
  const links = folders.filter((entry) => entry.kind === 'link').map((entry) => `${entry.path}/`);
  for (const { path, kind } of folders) {
    // Nothing can lie below a link.
    if (links.some((link) => path.startsWith(link))) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const at = `/root/${path}`;
    if (kind === 'empty') fs.write(at, { kind: 'directory' });
    else if (kind === 'link') fs.write(at, { kind: 'symlink', target: '/root/top-0' });
    else fs.write(`${at}/SKILL.md`, kind === 'valid' ? valid(name) : broken);
  }
  return fs;
}

const limits = fc.record(
  {
    maxDepth: fc.integer({ min: 0, max: 5 }),
    maxSkills: fc.integer({ min: 0, max: 30 }),
    maxDirectories: fc.integer({ min: 0, max: 12 }),
    pathOrder: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** The report and the order `onResult` saw, with `helper` or without. */
function validate(fs: SkillFileSystem, walk: WalkOptions, helper?: TreeCheckHelper) {
  const order: SkillCheck[] = [];
  const report = validateSkillPaths(['/root'], {
    fs,
    walk,
    onResult: (check) => order.push(check),
    ...(helper === undefined ? {} : { helper }),
  });
  return { report, order: order.map((check) => check.path) };
}

describe('checkTree with a helper thread', () => {
  it('gives the one walk’s report, limits included, however the shares are taken', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(folder, { maxLength: 24, selector: (entry) => entry.path }),
        limits,
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 5 }),
        fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
        (folders, walk, shareSize, steps, lost) => {
          const fs = tree(folders);
          const alone = validate(fs, walk);
          const helper = playedHelper(fs, shareSize, steps, lost);
          const shared = validate(fs, walk, helper);
          expect(shared.report).toEqual(alone.report);
          expect(shared.order).toEqual(alone.order);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lets the helper do a share of the work on a tree without limits in reach', () => {
    const fs = tree([]);
    for (let index = 0; index < 40; index += 1)
      (fs as ReturnType<typeof createMemoryFileSystem>).write(
        `/root/skill-${String(index).padStart(2, '0')}/SKILL.md`,
        valid(`skill-${String(index).padStart(2, '0')}`),
      );
    const helper = playedHelper(fs, 4, [1]);
    const shared = validate(fs, {}, helper);
    expect(shared.report).toEqual(validate(fs, {}).report);
    expect(shared.report.summary.skills).toBe(46);
    expect(helper.started()).toBe(1);
    // 12 shares, claimed in turn: the helper walked half of them.
    expect(helper.byHelper()).toBe(6);
  });

  it('starts no helper when links are followed (only one walk can tell a loop)', () => {
    const fs = tree([{ path: 'x', kind: 'link' }]);
    const helper = playedHelper(fs, 1, [1]);
    const shared = validate(fs, { followSymlinks: true }, helper);
    expect(helper.started()).toBe(0);
    expect(shared.report).toEqual(validate(fs, { followSymlinks: true }).report);
  });
});
