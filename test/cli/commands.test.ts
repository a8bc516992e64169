import { readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { VERSION } from '../../src/cli/version.js';
import { runCli } from '../helpers/cli.js';
import { skillText, tempDir, writeSkill, writeTree } from '../helpers/temp.js';

describe('skillhost read-properties', () => {
  it('prints the reference-shaped JSON, non-ASCII escaped as Python does', async () => {
    const root = tempDir();
    writeTree(root, {
      'demo/SKILL.md': skillText(
        'name: demo\ndescription: " Résumé tool 😀 "\nlicense: MIT\ncompatibility: node\nallowed-tools: Read\nmetadata:\n  author: me',
      ),
    });
    const run = await runCli(['read-properties', join(root, 'demo')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        '{',
        '  "name": "demo",',
        '  "description": "R\\u00e9sum\\u00e9 tool \\ud83d\\ude00",',
        '  "license": "MIT",',
        '  "compatibility": "node",',
        '  "allowed-tools": "Read",',
        '  "metadata": {',
        '    "author": "me"',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('reads properties of a skill that is parseable but not valid', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': skillText('name: Other\ndescription: d') });
    const run = await runCli(['read-properties', join(root, 'demo', 'SKILL.md')]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ name: 'Other', description: 'd' });
  });

  it('exits 1 with a coded message when properties cannot be read, 2 for a missing path', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': skillText('name: demo') });
    const run = await runCli(['read-properties', join(root, 'demo')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DESCRIPTION_MISSING');
    expect((await runCli(['read-properties', join(root, 'missing')])).code).toBe(2);
    expect((await runCli(['read-properties'])).code).toBe(2);
  });
});

describe('skillhost to-prompt', () => {
  it('prints the <available_skills> block byte for byte as the reference does', async () => {
    const root = tempDir();
    writeTree(root, {
      'b-skill/SKILL.md': skillText('name: b-skill\ndescription: Uses <tags> & "quotes" \'here\''),
    });
    writeSkill(root, 'a-skill');
    const real = realpathSync(root);
    const run = await runCli([
      'to-prompt',
      join(root, 'b-skill'),
      join(root, 'a-skill', 'SKILL.md'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        '<available_skills>',
        '<skill>',
        '<name>',
        'b-skill',
        '</name>',
        '<description>',
        'Uses &lt;tags&gt; &amp; &quot;quotes&quot; &#x27;here&#x27;',
        '</description>',
        '<location>',
        `${real}/b-skill/SKILL.md`,
        '</location>',
        '</skill>',
        '<skill>',
        '<name>',
        'a-skill',
        '</name>',
        '<description>',
        'Does a-skill things. Use when asked.',
        '</description>',
        '<location>',
        `${real}/a-skill/SKILL.md`,
        '</location>',
        '</skill>',
        '</available_skills>',
        '',
      ].join('\n'),
    );
  });

  it('resolves a linked skill directory in the location, and expands a tree in sorted order', async () => {
    const root = tempDir();
    writeSkill(root, 'zed');
    writeSkill(root, 'abc');
    const links = tempDir();
    symlinkSync(join(root, 'zed'), join(links, 'zed'));
    const linked = await runCli(['to-prompt', join(links, 'zed')]);
    expect(linked.stdout).toContain(`<location>\n${realpathSync(root)}/zed/SKILL.md\n</location>`);
    const tree = await runCli(['to-prompt', root]);
    expect(tree.stdout.indexOf('abc')).toBeLessThan(tree.stdout.indexOf('zed'));
  });

  it('lists a skill with properties whatever its other findings, and says why one without is skipped', async () => {
    const root = tempDir();
    writeTree(root, {
      'noname/SKILL.md': skillText('description: d'),
      'wrong-name/SKILL.md': skillText(
        'name: Other_Name\ndescription: d\nallowed-tools: Frobnicate',
      ),
      // The whole file is still decoded: bytes that are not UTF-8 in the body skip the skill.
      'badbody/SKILL.md': Buffer.concat([
        Buffer.from(skillText('name: badbody\ndescription: d', 'body ')),
        Buffer.from([0xff, 0x0a]),
      ]),
    });
    const run = await runCli(['to-prompt', root]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('<name>\nOther_Name\n</name>');
    expect(run.stdout).not.toContain('badbody');
    expect(run.stderr).toBe(
      [
        `skipped: ${join(root, 'badbody')}: TEXT_NOT_UTF8: File is not valid UTF-8: byte 0xFF at byte offset 42 cannot start or continue a character`,
        `skipped: ${join(root, 'noname')}: NAME_MISSING: Missing required field: name`,
        '',
      ].join('\n'),
    );
  });

  it('exits 1 when a skill given directly cannot be read', async () => {
    const root = tempDir();
    writeTree(root, { 'demo/SKILL.md': 'no frontmatter' });
    const run = await runCli(['to-prompt', join(root, 'demo')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('FRONTMATTER_MISSING');
  });
});

describe('help and version', () => {
  it('prints the version from package.json', async () => {
    const packageJson = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(VERSION).toBe(packageJson.version);
    expect((await runCli(['--version'])).stdout).toBe(`skillhost ${VERSION}\n`);
  });

  it('has --help for the CLI and for every command', async () => {
    const main = await runCli(['--help']);
    expect(main.code).toBe(0);
    for (const command of COMMANDS) {
      expect(main.stdout).toContain(command.name);
      const help = await runCli([command.name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: skillhost ${command.name}`);
      expect(help.stdout).toContain('Exit codes');
      expect((await runCli(['help', command.name])).stdout).toBe(help.stdout);
    }
  });

  it('rejects unknown commands with exit 2', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'frobnicate'");
    expect((await runCli([])).code).toBe(2);
  });
});
