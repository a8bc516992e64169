import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

/** The caret line under an excerpt, as the column (1-based) the caret stands at. */
function caretColumn(output: string): number {
  const line = output.split('\n').find((text) => /^\s+\|\s*\^/.test(text)) as string;
  const bar = line.indexOf('|');
  return line.indexOf('^') - bar - 1;
}

describe('validate messages that lead somewhere', () => {
  it('names text after a > or | block indicator, points at its first character and says what to do', async () => {
    const root = tempDir();
    const cases = [
      ['folded', 'description: > Use when testing', 16],
      ['literal', 'description: |Use when testing', 15],
      ['chomped', 'description: >- Use when testing\n  and more', 17],
    ] as const;
    for (const [name, line, column] of cases) {
      writeTree(root, { [`${name}/SKILL.md`]: skillText(`name: ${name}\n${line}`) });
      const run = await runCli(['validate', join(root, name)]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`SKILL.md:3:${column}: error YAML_BLOCK_SCALAR_TEXT`);
      // One diagnostic for one mistake, even when the YAML library reports it twice.
      expect(run.stdout.match(/YAML_BLOCK_SCALAR_TEXT/g)).toHaveLength(1);
      expect(caretColumn(run.stdout)).toBe(column);
      expect(run.stdout).toContain('hint: Put the text on the next lines, indented');
    }
  });

  it('points at the ": " of an unquoted value that YAML reads as a nested key', async () => {
    const root = tempDir();
    writeTree(root, {
      'colon/SKILL.md': skillText('name: colon\ndescription: Use when: the user asks'),
    });
    const run = await runCli(['validate', join(root, 'colon')]);
    expect(run.stdout).toContain('SKILL.md:3:22: error YAML_SYNTAX');
    expect(caretColumn(run.stdout)).toBe(22);
    expect(run.stdout).toContain('Quote values that contain ": "');
  });

  it('reads a quoted value continued at column 0 as the common readers do, with a portability warning, in both modes', async () => {
    const root = tempDir();
    writeTree(root, {
      'wrapped/SKILL.md': skillText(
        'name: wrapped\ndescription: "Extracts tables from PDFs.\nUse when the user mentions invoices."\nlicense: MIT',
      ),
      // The quote never closes before a line that reads as a key: the meaning is in doubt.
      'unclosed/SKILL.md': skillText('name: unclosed\ndescription: "Extracts tables\nlicense: MIT'),
    });
    for (const mode of [[], ['--lenient']]) {
      const run = await runCli(['validate', ...mode, '--json', join(root, 'wrapped')]);
      expect(run.code).toBe(0);
      const [result] = JSON.parse(run.stdout).results;
      expect(result.properties.description).toBe(
        'Extracts tables from PDFs. Use when the user mentions invoices.',
      );
      expect(result.diagnostics).toEqual([
        expect.objectContaining({
          code: 'YAML_QUOTED_CONTINUATION',
          severity: 'warning',
          line: 4,
          column: 1,
        }),
      ]);
    }
    const unclosed = await runCli(['validate', '--lenient', join(root, 'unclosed')]);
    expect(unclosed.code).toBe(1);
    expect(unclosed.stdout).toContain('error YAML_SYNTAX');
    // Loading takes it the same way: the skill is listed with its warning, and usable.
    const list = await runCli(['list', '--json', '--no-default-sources', '--skills', root]);
    const skills = JSON.parse(list.stdout).skills as Array<{ name: string; status: string }>;
    expect(skills.map((skill) => [skill.name, skill.status])).toEqual([
      ['unclosed', 'skipped'],
      ['wrapped', 'active'],
    ]);
  });

  it('--quiet prints only errors and the summary', async () => {
    const root = tempDir();
    writeTree(root, {
      'warned/SKILL.md': skillText(
        'name: warned\ndescription: Does things. Use when asked.\nauthor: me',
      ),
      'broken/SKILL.md': skillText('name: broken\ndescription: > Use when asked'),
    });
    const loud = await runCli(['validate', '--lenient', root]);
    expect(loud.stdout).toMatch(/: warning /);
    const quiet = await runCli(['validate', '--lenient', '-q', root]);
    expect(quiet.stdout).not.toMatch(/: warning /);
    expect(quiet.stdout).toContain('error YAML_BLOCK_SCALAR_TEXT');
    expect(quiet.stdout).toMatch(/Checked 2 skills: 1 valid, 1 invalid \(1 error, 1 warning\)\n$/);
    const github = await runCli(['validate', '--lenient', '--quiet', '--format', 'github', root]);
    expect(github.stdout).not.toContain('::warning');
    expect(github.stdout).toContain('::error ');
    expect((await runCli(['validate', '--quiet', '--json', root])).code).toBe(2);
  });

  it('--format github writes paths relative to the repository root, wherever it runs', async () => {
    const repository = tempDir();
    mkdirSync(join(repository, '.git'));
    mkdirSync(join(repository, 'tools', 'ci'), { recursive: true });
    writeTree(repository, {
      'skills/bad/SKILL.md': skillText('name: Bad\ndescription: Does things. Use when asked.'),
    });
    writeSkill(join(repository, 'skills'), 'fine');
    const fromBelow = await runCli(['validate', '--format', 'github', '../../skills'], {
      cwd: join(repository, 'tools', 'ci'),
    });
    expect(fromBelow.stdout).toContain('::error file=skills/bad/SKILL.md,line=2,col=7,');
    // In a workflow, GITHUB_WORKSPACE is the repository's root.
    const workspace = await runCli(['validate', '--format', 'github', 'bad'], {
      cwd: join(repository, 'skills'),
      env: { GITHUB_WORKSPACE: repository },
    });
    expect(workspace.stdout).toContain('file=skills/bad/SKILL.md');
  });
});
