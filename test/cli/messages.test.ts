import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

/** A folder of skills: a good one with a resource, a broken one, and two copies of one name. */
function collection() {
  const root = tempDir();
  writeSkill(root, 'pdf-forms', {
    'forms.md': '# Forms\n',
    'scripts/fill.sh': 'echo filled\n',
  });
  writeTree(root, {
    'broken/SKILL.md': skillText('name: broken\ndescription: > Use when things break'),
    'warned/SKILL.md': skillText(
      'name: warned\ndescription: Does warned things. Use when asked.\nauthor: me\nversion: "1"',
    ),
  });
  const other = tempDir();
  writeSkill(other, 'warned');
  return { root, other, args: ['--no-default-sources', '--skills', root] };
}

describe('messages that lead somewhere', () => {
  it('activate, read and run of a skill list shows as skipped say SKILL_UNAVAILABLE, why and where', async () => {
    const { args } = collection();
    for (const argv of [
      ['activate', 'broken'],
      ['read', 'broken', 'SKILL.md'],
      ['run', '--yes', 'broken', 'scripts/x.sh'],
    ]) {
      const run = await runCli([...argv, ...args]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('error SKILL_UNAVAILABLE');
      expect(run.stderr).toContain('skillhost list shows it as skipped: YAML_BLOCK_SCALAR_TEXT at');
      expect(run.stderr).toMatch(/broken\/SKILL\.md:3:16: Text follows the block indicator/);
      expect(run.stderr).not.toContain('SKILL_NOT_FOUND');
    }
  });

  it('run, sandbox explain and approve exit 1 for a skill missing or unusable, 3 for a refusal', async () => {
    const { args } = collection();
    for (const command of [['run', '--yes'], ['sandbox', 'explain'], ['approve']]) {
      const broken = await runCli([...command, 'broken', 'scripts/x.sh', ...args]);
      expect([broken.code, broken.stderr]).toEqual([
        1,
        expect.stringContaining('error SKILL_UNAVAILABLE'),
      ]);
      const missing = await runCli([...command, 'nope', 'scripts/x.sh', ...args]);
      expect([missing.code, missing.stderr]).toEqual([
        1,
        expect.stringContaining('error SKILL_NOT_FOUND'),
      ]);
      const outside = await runCli([...command, 'pdf-forms', 'forms.md', ...args]);
      expect([outside.code, outside.stderr]).toEqual([
        3,
        expect.stringContaining('error SCRIPT_OUTSIDE_SCRIPTS'),
      ]);
    }
  });

  it('an unknown skill, command, option or resource path gets a "did you mean"', async () => {
    const { args } = collection();
    const skill = await runCli(['activate', 'pdf-form', ...args]);
    expect(skill.stderr).toContain("No skill named 'pdf-form'. Did you mean 'pdf-forms'?");
    // A skipped skill is suggested too: activating it then says why it is skipped.
    const skipped = await runCli(['activate', 'brokn', ...args]);
    expect(skipped.stderr).toContain("Did you mean 'broken'?");
    const command = await runCli(['activte']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'activte'. Did you mean 'activate'?");
    const option = await runCli(['list', '--verbos', ...args]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--verbos'. Did you mean '--verbose'?");
    const negated = await runCli(['list', '--no-defaults-sources']);
    expect(negated.stderr).toContain("Did you mean '--no-default-sources'?");
    const nothing = await runCli(['list', '--zzzzzzzz']);
    expect(nothing.stderr).toContain("unknown option '--zzzzzzzz'\n");
    // A body that says FORMS.md for the file forms.md.
    const path = await runCli(['read', 'pdf-forms', 'FORMS.md', ...args]);
    expect(path.code).toBe(1);
    expect(path.stderr).toContain('RESOURCE_NOT_FOUND');
    expect(path.stderr).toContain("Did you mean 'forms.md'?");
    const elsewhere = await runCli(['read', 'pdf-forms', 'fill.sh', ...args]);
    expect(elsewhere.stderr).toContain("Did you mean 'scripts/fill.sh'?");
  });

  it('list shows the first warning or error of each skill, all with --verbose, only errors with --quiet', async () => {
    const { root, other } = collection();
    const args = ['--no-default-sources', '--skills', other, '--skills', root];
    const plain = await runCli(['list', ...args]);
    const line = (name: string, text: string) =>
      text.split('\n').find((row) => row.startsWith(`${name} `)) as string;
    expect(line('broken', plain.stdout)).toContain(
      'error YAML_BLOCK_SCALAR_TEXT: Text follows the block indicator',
    );
    // The copy that is shadowed says so once; its own warnings are the skill's findings.
    const shadowed = plain.stdout.split('\n').filter((row) => row.startsWith('warned '));
    expect(shadowed).toHaveLength(2);
    expect(shadowed[1]).toMatch(
      /shadowed by warned@explicit; warning FIELD_\w+: .*\(\+1 more: --verbose\)$/,
    );
    expect(shadowed[1]).not.toContain('SKILL_SHADOWED');
    const verbose = await runCli(['list', '--verbose', ...args]);
    expect(verbose.stdout).toMatch(/\n {4}warning \w+: .*warned\/SKILL\.md:4:1\)\n/);
    expect(verbose.stdout).toMatch(/\n {4}warning \w+: .*warned\/SKILL\.md:5:1\)\n/);
    const quiet = await runCli(['list', '--quiet', ...args]);
    const rows = quiet.stdout.split('\n').filter((row) => /^\w/.test(row));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^NAME\s+SOURCE/);
    expect(rows[1]).toMatch(/^broken /);
    expect(rows[2]).toBe('4 skills: 2 active, 1 shadowed, 1 skipped, 0 untrusted');
    expect((await runCli(['list', '--quiet', '--verbose', ...args])).code).toBe(2);
  });

  it('offers no option that does nothing: mcp takes no --json, trust honours it', async () => {
    const mcp = await runCli(['mcp', '--json']);
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toContain("unknown option '--json'");
    const home = tempDir('skillhost-home-');
    const folder = tempDir();
    const trusted = await runCli(['trust', folder, '--json'], { home });
    expect(JSON.parse(trusted.stdout)).toMatchObject({ trusted: true, changed: true });
    const again = await runCli(['trust', folder, '--json'], { home });
    expect(JSON.parse(again.stdout)).toMatchObject({ trusted: true, changed: false });
    const revoked = await runCli(['trust', '--revoke', folder, '--json'], { home });
    expect(JSON.parse(revoked.stdout)).toMatchObject({ trusted: false, changed: true });
    const list = await runCli(['trust', '--list', '--json'], { home });
    expect(JSON.parse(list.stdout)).toEqual({ trustedProjects: [], trustedSkills: [] });
  });

  it('aligns every --help: option descriptions start at one column, continuation lines too', () => {
    for (const command of COMMANDS) {
      const columns = new Set<number>();
      let continuation: number | undefined;
      for (const line of command.help.split('\n')) {
        const option = /^( {2,4}-\S.*?)( {2,})(\S.*)$/.exec(line);
        if (option !== null) {
          const column = (option[1] as string).length + (option[2] as string).length;
          columns.add(column);
          continuation = column;
          continue;
        }
        // A line right below an option's description, indented past the option, continues it.
        if (continuation !== undefined && /^ {5,}\S/.test(line)) {
          const indent = line.length - line.trimStart().length;
          if (indent > 4) expect([command.name, indent]).toEqual([command.name, continuation]);
          continue;
        }
        continuation = undefined;
      }
      expect([command.name, columns.size]).toEqual([command.name, columns.size === 0 ? 0 : 1]);
    }
  });
});

describe('route --explain', () => {
  it('shows how the task was read and, term by term and field by field, why each skill scored', async () => {
    const { args } = collection();
    const run = await runCli(['route', '--explain', 'please fill the PDF forms', ...args]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Task terms (word stems): fill, pdf, form');
    expect(run.stdout).toContain('Left out (stop words): please, the');
    // "fill" is in no skill: the match covers the rest of the task.
    expect(run.stdout).toMatch(
      /\n {2}pdf-forms: score [\d.]+, covers \d+% of the task; (not )?selected/,
    );
    expect(run.stdout).toMatch(/\n {4}form +[\d.]+ +rarity [\d.]+; in name 3, description 1\n/);
    expect(run.stdout).toMatch(
      /\n {4}pdf form +[\d.]+ +rarity [\d.]+; in name 1.5, description 1.5\n/,
    );
    const json = JSON.parse((await runCli(['route', '--json', 'pdf forms', ...args])).stdout);
    expect(json.query).toEqual({ terms: ['pdf', 'form'], phrases: ['pdf form'], dropped: [] });
    expect(json.ranked[0]).toMatchObject({ name: 'pdf-forms', coverage: 1 });
    expect(json.ranked[0].matches.pdf.fields).toEqual({ name: 3, description: 1 });
  });
});

describe('help names only options that work', () => {
  it('every option a command documents is one it accepts', async () => {
    for (const command of COMMANDS) {
      // The servers (mcp, ui) serve until stopped: test/cli/ui.test.ts checks ui's options.
      if (command.name === 'mcp' || command.name === 'agent' || command.name === 'ui') continue;
      for (const match of command.help.matchAll(/^ {2}(--[a-z][a-z-]*)/gm)) {
        const option = match[1] as string;
        const run = await runCli([command.name, option, '--definitely-not-an-option'], {
          cwd: join(tempDir(), '.'),
        });
        // The parser reaches the option after it: the documented one was accepted (or needed a value).
        expect([command.name, option, run.stderr]).not.toEqual([
          command.name,
          option,
          expect.stringContaining(`unknown option '${option}'`),
        ]);
      }
    }
  });
});
