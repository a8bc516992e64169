import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SkillFileSystem } from '../../src/deps.js';
import { createNodeFileSystem } from '../../src/node/fs.js';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

/** The file system, counting the calls of each method into `calls`. */
function countingFileSystem(fs: SkillFileSystem, calls: Record<string, number>): SkillFileSystem {
  const counted =
    <A extends unknown[], R>(name: string, call: (...args: A) => R) =>
    (...args: A): R => {
      calls[name] = (calls[name] ?? 0) + 1;
      return call(...args);
    };
  return {
    listDirectory: counted('listDirectory', (path: string) => fs.listDirectory(path)),
    status: counted('status', (path: string, follow: boolean) => fs.status(path, follow)),
    realPath: counted('realPath', (path: string) => fs.realPath(path)),
    readFileWithin: counted('readFileWithin', fs.readFileWithin.bind(fs)),
  };
}

describe('skillhost validate', () => {
  it('exits 0 for valid skills and prints a summary', async () => {
    const root = tempDir();
    writeSkill(root, 'alpha', { 'references/guide.md': '# Guide' });
    writeSkill(root, 'beta');
    const run = await runCli(['validate', root]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Checked 2 skills: all valid\n');
  });

  it("writes one PATH's --json document as it goes, the same as for several PATHs", async () => {
    const root = tempDir();
    // Names where folder order and path order differ ('pdf/x' sorts after 'pdf-tools').
    for (const name of ['pdf-tools', 'pdf.x', 'pdf0', 'zz']) writeSkill(root, name);
    writeSkill(join(root, 'pdf'), 'inner');
    writeTree(root, { 'bad/SKILL.md': skillText('name: wrong\ndescription: d') });
    const one = await runCli(['validate', '--json', root]);
    const empty = join(root, 'pdf', 'empty');
    mkdirSync(empty);
    // Two PATHs are merged and sorted as one document; the second holds no skill.
    const two = await runCli(['validate', '--json', root, empty]);
    const paths = (run: { stdout: string }) =>
      JSON.parse(run.stdout).results.map((result: { path: string }) => result.path);
    expect(paths(one)).toEqual(
      ['bad', 'pdf-tools', 'pdf.x', 'pdf/inner', 'pdf0', 'zz'].map((name) => join(root, name)),
    );
    expect(paths(two)).toEqual(paths(one));
    const withoutTreeFindings = JSON.parse(two.stdout);
    delete withoutTreeFindings.diagnostics;
    withoutTreeFindings.summary.unchecked = 0;
    expect(one.stdout).toBe(`${JSON.stringify(withoutTreeFindings, null, 2)}\n`);
    expect(one.code).toBe(1);
    const none = await runCli(['validate', '--json', empty]);
    expect(JSON.parse(none.stdout)).toMatchObject({
      results: [],
      diagnostics: [{ code: 'NO_SKILLS_FOUND' }],
    });
    expect(none.stdout).toBe(`${JSON.stringify(JSON.parse(none.stdout), null, 2)}\n`);
  });

  it('does not search inside a skill directory: a SKILL.md in its sub-folders is no skill', async () => {
    const root = tempDir();
    writeSkill(root, 'outer', { 'references/guide.md': '# Guide' });
    // Invalid on purpose: were it searched for, validation would fail.
    writeTree(root, { 'outer/examples/Inner/SKILL.md': skillText('name: Inner\ndescription: d') });
    const run = await runCli(['validate', '--json', root]);
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.results.map((result: { path: string }) => result.path)).toEqual([
      join(root, 'outer'),
    ]);
    // Named directly, the inner folder is validated like any skill.
    expect((await runCli(['validate', join(root, 'outer/examples/Inner')])).code).toBe(1);
  });

  it('prints compiler-style diagnostics with an excerpt and a caret, and exits 1', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': skillText('name: Demo\ndescription: Does it.') });
    const run = await runCli(['validate', 'demo'], { cwd: root });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('demo/SKILL.md:2:7: error NAME_NOT_LOWERCASE: ');
    expect(run.stdout).toContain(' 2 | name: Demo\n   |       ^\n');
    expect(run.stdout).toContain('= hint: ');
    expect(run.stdout).toMatch(/Checked 1 skill: 0 valid, 1 invalid \(2 errors\)\n$/);
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('colours output only on a terminal', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': skillText('name: Demo\ndescription: d') });
    expect((await runCli(['validate', root], { tty: true })).stdout).toContain('\u001b[31m');
    expect(
      (await runCli(['validate', root], { tty: true, env: { NO_COLOR: '1' } })).stdout,
    ).not.toContain('\u001b[');
  });

  it('prints the JSON document with the documented shape', async () => {
    const root = tempDir();
    writeSkill(root, 'good');
    writeTree(root, { 'bad/SKILL.md': skillText('name: bad\ndescription: d\nversion: 1') });
    const run = await runCli(['validate', '--json', root]);
    expect(run.code).toBe(1);
    const document = JSON.parse(run.stdout);
    expect(Object.keys(document)).toEqual(['results', 'summary']);
    expect(document.summary).toEqual({ skills: 2, valid: 1, invalid: 1, unchecked: 0 });
    expect(document.results).toEqual([
      {
        path: join(root, 'bad'),
        valid: false,
        diagnostics: [
          {
            code: 'FIELD_UNKNOWN',
            severity: 'error',
            message: expect.stringContaining("'version'"),
            file: join(root, 'bad', 'SKILL.md'),
            line: 4,
            column: 1,
          },
        ],
        properties: { name: 'bad', description: 'd' },
      },
      {
        path: join(root, 'good'),
        valid: true,
        diagnostics: [],
        properties: { name: 'good', description: 'Does good things. Use when asked.' },
      },
    ]);
    expect(JSON.parse((await runCli(['validate', '--format', 'json', root])).stdout)).toEqual(
      document,
    );
  });

  it('prints GitHub Actions annotations', async () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': skillText('name: demo\ndescription: "a, b: c"\ncolor: red'),
    });
    const run = await runCli(['validate', '--format', 'github', 'demo'], { cwd: root });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error file=demo/SKILL.md,line=4,col=1,title=FIELD_UNKNOWN::');
  });

  it('applies lenient rules with --lenient', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': skillText('name: Demo\ndescription: d\nversion: 2') });
    expect((await runCli(['validate', root])).code).toBe(1);
    const lenient = await runCli(['validate', '--lenient', root]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain('warning NAME_NOT_LOWERCASE');
  });

  it('accepts a SKILL.md path and a skill.md with a portability warning', async () => {
    const root = tempDir();
    writeSkill(root, 'demo');
    expect((await runCli(['validate', join(root, 'demo', 'SKILL.md')])).code).toBe(0);
    writeTree(root, { 'lower/skill.md': skillText('name: lower\ndescription: d') });
    const run = await runCli(['validate', join(root, 'lower')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('warning SKILL_FILE_LOWERCASE');
  });

  it('exits 2 for usage errors and unreadable paths, 1 when nothing is found', async () => {
    const root = tempDir();
    expect((await runCli(['validate'])).code).toBe(2);
    expect((await runCli(['validate', '--bogus', root])).code).toBe(2);
    expect((await runCli(['validate', '--format', 'xml', root])).code).toBe(2);
    const missing = await runCli(['validate', join(root, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('PATH_NOT_FOUND');
    // A PATH that does not exist is not a checked skill: the summary counts skills only.
    expect(missing.stdout).toMatch(/Checked 0 skills; 1 PATH not checked \(1 error\)\n$/);
    writeSkill(root, 'real');
    const mixed = await runCli(['validate', '--json', join(root, 'real'), join(root, 'nope')]);
    const mixedDocument = JSON.parse(mixed.stdout);
    expect(mixedDocument.summary).toEqual({ skills: 1, valid: 1, invalid: 0, unchecked: 1 });
    expect(mixedDocument.results.map((result: { path: string }) => result.path)).toEqual([
      join(root, 'real'),
    ]);
    expect(mixedDocument.diagnostics[0]).toMatchObject({
      code: 'PATH_NOT_FOUND',
      file: join(root, 'nope'),
    });
    writeFileSync(join(root, 'notes.txt'), 'x');
    expect((await runCli(['validate', join(root, 'notes.txt')])).code).toBe(2);
    mkdirSync(join(root, 'empty'));
    const empty = await runCli(['validate', '--json', join(root, 'empty')]);
    expect(empty.code).toBe(1);
    expect(JSON.parse(empty.stdout).diagnostics[0].code).toBe('NO_SKILLS_FOUND');
    expect(JSON.parse(empty.stdout).summary).toMatchObject({ skills: 0, unchecked: 1 });
  });

  it('gives every hostile SKILL.md a coded error and keeps validating the others', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.md'), skillText('name: escape\ndescription: SECRET'));
    writeSkill(root, 'good');
    mkdirSync(join(root, 'fifo'));
    execFileSync('mkfifo', [join(root, 'fifo', 'SKILL.md')]);
    mkdirSync(join(root, 'dir', 'SKILL.md'), { recursive: true });
    mkdirSync(join(root, 'escape'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'escape', 'SKILL.md'));
    mkdirSync(join(root, 'device'));
    symlinkSync('/dev/zero', join(root, 'device', 'SKILL.md'));
    mkdirSync(join(root, 'huge'));
    writeFileSync(join(root, 'huge', 'SKILL.md'), '');
    truncateSync(join(root, 'huge', 'SKILL.md'), 50 * 1024 * 1024);
    writeTree(root, {
      'binary/SKILL.md': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      'latin1/SKILL.md': new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]),
      'bom/SKILL.md': `\ufeff${skillText('name: bom\ndescription: d')}`,
      'crlf/SKILL.md': skillText('name: crlf\ndescription: d').replace(/\n/g, '\r\n'),
      'empty/SKILL.md': '',
      'noopen/SKILL.md': 'name: x\n',
      'noclose/SKILL.md': '---\nname: noclose\n',
      'list/SKILL.md': '---\n- a\n---\n',
      'dup/SKILL.md': skillText('name: dup\nname: dup\ndescription: d'),
    });
    const run = await runCli(['validate', '--json', root]);
    expect(run.code).toBe(1);
    const byName = Object.fromEntries(
      JSON.parse(run.stdout).results.map(
        (result: { path: string; valid: boolean; diagnostics: Array<{ code: string }> }) => [
          result.path.slice(root.length + 1),
          result.valid
            ? 'valid'
            : result.diagnostics
                .filter((d) => d.code)
                .map((d) => d.code)
                .join(','),
        ],
      ),
    );
    expect(byName).toEqual({
      binary: 'TEXT_NOT_UTF8',
      bom: 'valid',
      crlf: 'valid',
      device: 'SKILL_FILE_SYMLINK_ESCAPE',
      dir: 'SKILL_FILE_NOT_REGULAR',
      dup: 'YAML_DUPLICATE_KEY',
      empty: 'FILE_EMPTY',
      escape: 'SKILL_FILE_SYMLINK_ESCAPE',
      fifo: 'SKILL_FILE_NOT_REGULAR',
      good: 'valid',
      huge: 'SKILL_FILE_TOO_LARGE',
      latin1: 'TEXT_NOT_UTF8',
      list: 'FRONTMATTER_NOT_MAPPING',
      noclose: 'FRONTMATTER_UNCLOSED',
      noopen: 'FRONTMATTER_MISSING',
    });
    expect(run.stdout).not.toContain('SECRET');
  });
});

describe('skillhost validate and linked directories', () => {
  it('reports linked directories unless --follow-symlinks, and never loops', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    writeSkill(elsewhere, 'linked');
    writeSkill(root, 'local');
    symlinkSync(join(elsewhere, 'linked'), join(root, 'linked'));
    symlinkSync(root, join(root, 'loop'));
    const plain = JSON.parse((await runCli(['validate', '--json', root])).stdout);
    expect(plain.summary.skills).toBe(1);
    expect(plain.diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'WALK_SYMLINK_SKIPPED',
      'WALK_SYMLINK_SKIPPED',
    ]);
    const followed = await runCli(['validate', '--json', '--follow-symlinks', root]);
    const document = JSON.parse(followed.stdout);
    expect(document.summary.skills).toBe(2);
    expect(document.diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'WALK_SYMLINK_LOOP',
    ]);
    expect(followed.code).toBe(0);
  });
});

/** True when text holds a control character (other than tab and newline) or a bidi override. */
function hasUnsafeCharacter(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (
      (code < 0x20 && code !== 9 && code !== 10) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x202e
    )
      return true;
  }
  return false;
}

describe('skillhost validate and hostile text', () => {
  it('never prints control characters or bidirectional overrides raw', async () => {
    const root = tempDir();
    const evil = 'evil\u001b[2J\u202e';
    writeTree(root, {
      [`${evil}/SKILL.md`]: skillText(`name: "x\\u001b]0;pwned\\u0007"\ndescription: d`),
    });
    const run = await runCli(['validate', root]);
    expect(run.code).toBe(1);
    expect(hasUnsafeCharacter(run.stdout)).toBe(false);
    expect(run.stdout).toContain('\\u001b');
    const github = await runCli(['validate', '--format', 'github', root]);
    expect(hasUnsafeCharacter(github.stdout)).toBe(false);
    expect(hasUnsafeCharacter('a\u001bb')).toBe(true);
  });

  it('checks a bounded number of links on a body stuffed with links on one line', async () => {
    /** Validates one skill whose body has `links` broken links on one line; counts fs calls. */
    const validate = async (links: number) => {
      const root = tempDir();
      const targets = Array.from({ length: links }, (_, index) => `[a](${index.toString(36)}) `);
      const body = `\`code\` ${targets.join('')}\n`;
      writeTree(root, { 'demo/SKILL.md': skillText('name: demo\ndescription: d', body) });
      const calls: Record<string, number> = {};
      const fs = countingFileSystem(createNodeFileSystem(), calls);
      const run = await runCli(['validate', '--json', root], { fs });
      return { calls, diagnostics: JSON.parse(run.stdout).results[0].diagnostics };
    };
    const one = await validate(1);
    const capped = await validate(1000);
    const many = await validate(15_000);
    // Each link checked is one status call, and no more than 1,000 are checked: the file system
    // does no more work for 15,000 links than for 1,000.
    expect(many.calls).toEqual(capped.calls);
    expect((capped.calls.status ?? 0) - (one.calls.status ?? 0)).toBe(999);
    expect(many.diagnostics.length).toBeLessThanOrEqual(52);
    const messages = many.diagnostics.map((d: { message: string }) => d.message);
    expect(messages).toContainEqual(
      expect.stringContaining('; only the first 1000 of 15000 links were checked'),
    );
    expect(messages).toContainEqual(expect.stringContaining('more broken links not listed'));
  });

  it('asks once about a file the body links many times, and counts a dangling link as there', async () => {
    const root = tempDir();
    const body = `${'[guide](references/guide.md) '.repeat(50)}[gone](gone.md) [moved](moved.md)\n`;
    writeTree(root, {
      'demo/SKILL.md': skillText('name: demo\ndescription: d', body),
      'demo/references/guide.md': '# Guide\n',
    });
    symlinkSync('nowhere.md', join(root, 'demo', 'moved.md'));
    const counting = (fs: SkillFileSystem) => {
      const calls: Record<string, number> = {};
      const counted = countingFileSystem(fs, calls);
      const exists = fs.exists?.bind(fs);
      return {
        calls,
        fs: {
          ...counted,
          ...(exists === undefined
            ? {}
            : {
                exists: (path: string) => {
                  calls.exists = (calls.exists ?? 0) + 1;
                  return exists(path);
                },
              }),
        },
      };
    };
    const withExists = counting(createNodeFileSystem());
    const { exists: _unused, ...plain } = createNodeFileSystem();
    const withStatus = counting(plain);
    const results = [];
    for (const { fs } of [withExists, withStatus]) {
      const run = await runCli(['validate', '--json', root], { fs });
      results.push(JSON.parse(run.stdout).results[0].diagnostics);
    }
    // The same verdict either way: only gone.md is broken (moved.md is a link, if a dangling one).
    expect(results[0]).toEqual(results[1]);
    expect(results[0].map((d: { message: string }) => d.message)).toEqual([
      expect.stringContaining("'gone.md'"),
    ]);
    expect(withExists.calls.exists).toBe(3);
    expect(withExists.calls.status ?? 0).toBe((withStatus.calls.status ?? 0) - 3);
  });

  it('treats an empty metadata field as no metadata, as the reference does', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': skillText('name: demo\ndescription: d\nmetadata:') });
    const run = await runCli(['validate', root]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('warning METADATA_EMPTY');
  });
});

describe('messages are bounded', () => {
  it('quotes a huge value cut, with its length, in every message, strict and lenient', async () => {
    const root = tempDir();
    const huge = 'a'.repeat(10_000);
    writeTree(root, {
      'demo/SKILL.md': skillText(
        `name: ${huge}\ndescription: Does demo things.\n${'b'.repeat(1_000)}: x\nmetadata:\n  ${'c'.repeat(1_000)}: [1]`,
        `See [it](${'d'.repeat(5_000)}.md)\n`,
      ),
    });
    for (const mode of [[], ['--lenient']]) {
      const run = await runCli(['validate', '--json', ...mode, root]);
      const messages: string[] = JSON.parse(run.stdout).results[0].diagnostics.map(
        (diagnostic: { message: string }) => diagnostic.message,
      );
      expect(messages.length).toBeGreaterThan(2);
      for (const message of messages) expect(message.length, message).toBeLessThan(400);
      expect(messages.join('\n')).toContain("…' (10000 characters)");
    }
    const list = await runCli(['list', '--json', '--no-default-sources', '--skills', root]);
    for (const skill of JSON.parse(list.stdout).skills)
      for (const diagnostic of skill.diagnostics)
        expect(diagnostic.message.length).toBeLessThan(400);
  });
});
