import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, root } from '../helpers/built.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A tree with what a share must carry back unchanged: valid and invalid skills, warnings with
 * excerpts, a `__proto__` metadata key, names beyond ASCII, a lowercase skill.md, a FIFO, a link
 * the walk skips, folders of skills below folders, and a folder too deep for the walk.
 */
function hostileTree(): string {
  const base = join(tempDir('skillhost-walk-helper-'), 'skills');
  const skill = (path: string, text: string, file = 'SKILL.md') => {
    mkdirSync(join(base, path), { recursive: true });
    writeFileSync(join(base, path, file), text);
  };
  for (let index = 0; index < 2000; index += 1) {
    const name = `skill-${String(index).padStart(3, '0')}`;
    const kind = index % 7;
    if (kind === 0) skill(name, `---\nname: ${name}\n---\nNo description.\n`);
    else if (kind === 1)
      skill(
        name,
        `---\nname: ${name}\ndescription: Uses metadata. Use it in tests.\nmetadata:\n  __proto__: polluted\n  author: me\n---\nBody\n`,
      );
    else if (kind === 2)
      skill(name, `---\nname: ${name}\ndescription: Broken [link](missing.md) here.\n---\nBody\n`);
    else if (kind === 3)
      skill(name, `---\nname: ${name}\ndescription: Lower case file.\n---\n`, 'skill.md');
    else
      skill(
        name,
        `---\nname: ${name}\ndescription: A plain skill. Use it when testing.\nallowed-tools: Read Grep\n---\nSee [guide](references/guide.md).\n`,
      );
  }
  skill('技能', '---\nname: 技能\ndescription: 名前はユニコード。\n---\nBody\n');
  skill('group/inner-one', '---\nname: inner-one\ndescription: Nested. Use it.\n---\n');
  skill('group/deeper/inner-two', '---\nname: wrong-name\ndescription: Nested.\n---\n');
  skill('a/b/c/d/e/f/g/h/i/too-deep', '---\nname: too-deep\ndescription: Deep.\n---\n');
  mkdirSync(join(base, 'fifo-skill'));
  spawnSync('mkfifo', [join(base, 'fifo-skill', 'SKILL.md')]);
  symlinkSync(join(base, 'group'), join(base, 'linked-group'));
  return base;
}

function run(threads: '1' | '2', argv: readonly string[]) {
  const result = spawnSync(process.execPath, [bin, ...argv], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', SKILLHOST_THREADS: threads },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a tree checked on two threads', () => {
  it('gives validate and to-prompt the output of one thread, byte for byte (the built bin)', () => {
    const tree = hostileTree();
    for (const argv of [
      ['validate', '--json', tree],
      ['validate', tree],
      ['validate', '--format', 'github', tree],
      ['to-prompt', tree],
    ]) {
      const alone = run('1', argv);
      const shared = run('2', argv);
      expect(shared, argv.join(' ')).toEqual(alone);
    }
    const report = JSON.parse(run('2', ['validate', '--json', tree]).stdout);
    expect(report.summary.skills).toBe(2004);
    expect(report.summary.invalid).toBeGreaterThan(280);
    const metadata = report.results.find(
      (result: { path: string }) => result.path === join(tree, 'skill-001'),
    ).properties.metadata;
    expect(Object.keys(metadata)).toEqual(['__proto__', 'author']);
  });

  it('has the helper thread check shares of its own (the built library)', async () => {
    const tree = hostileTree();
    const { treeCheckHelper } = await import(join(root, 'dist', 'node', 'walk-helper.js'));
    const { createNodeFileSystem } = await import(join(root, 'dist', 'node', 'fs.js'));
    const { validateSkillPaths } = await import(join(root, 'dist', 'node', 'checks.js'));
    const fs = createNodeFileSystem();
    const real = treeCheckHelper(fs, 1);
    let fromHelper = 0;
    // Counts the shares the helper sent, and lets this thread claim only once the helper has
    // sent one (it would otherwise be done before the thread has started); the rest is the
    // real helper's.
    const counting = {
      shareSize: 16,
      start: (job: unknown) => {
        const shares = real.start(job);
        const early: unknown[] = [];
        const take = (wait: boolean) => {
          const share = early.shift() ?? shares.take(wait);
          if (share !== undefined) fromHelper += 1;
          return share;
        };
        return {
          claim: () => {
            if (fromHelper === 0 && early.length === 0) {
              const first = shares.take(true);
              if (first !== undefined) early.push(first);
            }
            return shares.claim();
          },
          take,
          close: () => shares.close(),
        };
      },
    };
    const options = { fs, walk: { maxDepth: 8, pathOrder: true } };
    const shared = validateSkillPaths([tree], { ...options, helper: counting });
    const alone = validateSkillPaths([tree], options);
    expect(shared).toEqual(alone);
    expect(fromHelper).toBeGreaterThan(0);
    // Not on another file system: the helper thread could not read it.
    expect(treeCheckHelper({ ...fs })).toBeUndefined();
  });

  it('bundles the program of the helper thread where the command line looks for it', async () => {
    const chunks = join(root, 'dist', 'cli', 'chunks');
    const program = await import(join(chunks, 'walk-worker.js'));
    expect(typeof program.runWalkWorker).toBe('function');
    const starting = readdirSync(chunks).filter((name) =>
      readFileSync(join(chunks, name), 'utf8').includes(
        'new URL("./walk-worker.js", require("url").pathToFileURL(__filename).href)',
      ),
    );
    expect(starting).toHaveLength(1);
  });
});
