import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/** The command the test CLI reports for itself (test/helpers/cli.ts). */
const NODE = '/opt/node/bin/node';
const BIN = '/opt/skillhost/dist/cli/bin.js';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const read = (path: string) => readFileSync(path, 'utf8');
const json = (path: string) => JSON.parse(read(path));

function setup() {
  const home = tempDir('skillhost-mcp-config-home-');
  const project = tempDir('skillhost-mcp-config-project-');
  const config = (...args: string[]) =>
    runCli(['mcp', 'config', ...args], { home, cwd: project, env: { HOME: home } });
  return { home, project, config };
}

describe('skillhost mcp config', () => {
  it('prints each client’s entries with this installation’s command, never npx', async () => {
    const { config } = setup();
    for (const client of ['claude', 'codex', 'gemini', 'cursor', 'vscode']) {
      const run = await config('--client', client);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(NODE);
      expect(run.stdout).toContain(BIN);
      expect(run.stdout).toMatch(new RegExp(`"mcp",\\s*"--client",\\s*"${client}"`));
      expect(run.stdout).not.toContain('npx');
      expect(run.stdout).toContain('To know:');
    }
    const claude = await config('--client', 'claude');
    expect(claude.stdout).toContain('~/.claude.json');
    expect(claude.stdout).toContain('mcp__skillhost__skillhost_activate');
    expect(claude.stdout).not.toContain('mcp__skillhost__skillhost_run');
    const codex = await config('--client', 'codex');
    expect(codex.stdout).toContain('[mcp_servers.skillhost.tools.skillhost_read]');
    expect(codex.stdout).toContain('approval_mode = "approve"');
    const gemini = await config('--client', 'gemini');
    expect(gemini.stdout).toContain('decision = "allow"');
    expect(gemini.stdout).not.toContain('"trust": true');
  });

  it('merges into Claude Code’s files, keeping every other entry, after showing the diff', async () => {
    const { home, config } = setup();
    const state = join(home, '.claude.json');
    write(
      state,
      `${JSON.stringify({ numStartups: 7, mcpServers: { other: { command: 'other' } } }, null, 2)}\n`,
    );
    const settings = join(home, '.claude/settings.json');
    write(settings, JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] }, theme: 'dark' }));
    const run = await config('--client', 'claude', '--write', '--', '--budget', '4000');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('--- ~/.claude.json');
    expect(run.stdout).toMatch(/^\+ {4}"skillhost": \{$/m);
    expect(run.stdout).toContain('wrote ~/.claude.json');
    expect(json(state)).toEqual({
      numStartups: 7,
      mcpServers: {
        other: { command: 'other' },
        skillhost: {
          type: 'stdio',
          command: NODE,
          args: [BIN, 'mcp', '--client', 'claude', '--budget', '4000'],
        },
      },
    });
    expect(json(settings)).toEqual({
      permissions: {
        allow: [
          'Bash(ls:*)',
          'mcp__skillhost__skillhost_activate',
          'mcp__skillhost__skillhost_read',
          'mcp__skillhost__skillhost_search',
        ],
      },
      theme: 'dark',
    });
    // Once merged, a second run changes nothing.
    const again = await config('--client', 'claude', '--write', '--', '--budget', '4000');
    expect(again.stdout).toContain('~/.claude.json: already set');
    expect(again.stdout).not.toContain('wrote');
  });

  it('writes a project’s Claude Code files, the server approved for this checkout only', async () => {
    const { project, config } = setup();
    const run = await config('--client', 'claude', '--scope', 'project', '--write');
    expect(run.code, run.stderr).toBe(0);
    expect(json(join(project, '.mcp.json')).mcpServers.skillhost.args).toEqual([
      BIN,
      'mcp',
      '--client',
      'claude',
      '--project',
      project,
    ]);
    expect(json(join(project, '.claude/settings.json')).permissions.allow).toHaveLength(3);
    expect(json(join(project, '.claude/settings.local.json'))).toEqual({
      enabledMcpjsonServers: ['skillhost'],
    });
    expect(statSync(join(project, '.mcp.json')).mode & 0o777).toBe(0o644);
  });

  it('replaces its own Codex tables and keeps the rest of config.toml as written', async () => {
    const { home, config } = setup();
    const file = join(home, '.codex/config.toml');
    const kept = '# mine\nmodel = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs"\n';
    write(
      file,
      `${kept}\n[mcp_servers.skillhost]\ncommand = "stale"\n\n[mcp_servers.skillhost.tools.skillhost_run]\napproval_mode = "approve"\n`,
    );
    const run = await config('--client', 'codex', '--write');
    expect(run.code, run.stderr).toBe(0);
    const text = read(file);
    expect(text.startsWith(`${kept}\n[mcp_servers.skillhost]\ncommand = "${NODE}"\n`)).toBe(true);
    expect(text).not.toContain('stale');
    // skillhost_run is no longer pre-approved; the read-only tools are.
    expect(text).not.toContain('tools.skillhost_run]');
    for (const tool of ['skillhost_activate', 'skillhost_read', 'skillhost_search'])
      expect(text).toContain(`[mcp_servers.skillhost.tools.${tool}]\napproval_mode = "approve"`);
    // Under CODEX_HOME when it is set.
    const codexHome = tempDir('skillhost-codex-home-');
    const moved = await runCli(['mcp', 'config', '--client', 'codex', '--write'], {
      home,
      env: { CODEX_HOME: codexHome },
    });
    expect(moved.code, moved.stderr).toBe(0);
    expect(existsSync(join(codexHome, 'config.toml'))).toBe(true);
  });

  it('refuses a file it cannot parse, naming it, and writes nothing at all', async () => {
    const { home, config } = setup();
    const state = join(home, '.claude.json');
    write(state, '{ "mcpServers": { // a comment\n } }');
    const run = await config('--client', 'claude', '--write');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('CLIENT_CONFIG_INVALID');
    expect(run.stderr).toContain(state);
    expect(read(state)).toBe('{ "mcpServers": { // a comment\n } }');
    expect(existsSync(join(home, '.claude/settings.json'))).toBe(false);

    const toml = join(home, '.codex/config.toml');
    write(toml, '[mcp_servers]\nskillhost = { command = "mine" }\n');
    const codex = await config('--client', 'codex', '--write');
    expect(codex.code).toBe(1);
    expect(codex.stderr).toContain(`${toml} is not rewritten`);
    expect(codex.stderr).toContain('inline table');

    write(join(home, '.gemini/settings.json'), '["not", "an", "object"]');
    const gemini = await config('--client', 'gemini', '--write');
    expect(gemini.code).toBe(1);
    expect(gemini.stderr).toContain('does not hold a JSON object');
    expect(existsSync(join(home, '.gemini/policies/skillhost.toml'))).toBe(false);
  });

  it('sets up Gemini CLI: the server without trust: true, a policy rule, the folder trusted', async () => {
    const { home, project, config } = setup();
    write(
      join(home, '.gemini/trustedFolders.json'),
      JSON.stringify({ '/elsewhere': 'TRUST_FOLDER' }),
    );
    const run = await config('--client', 'gemini', '--scope', 'project', '--write');
    expect(run.code, run.stderr).toBe(0);
    const entry = json(join(project, '.gemini/settings.json')).mcpServers.skillhost;
    expect(entry.command).toBe(NODE);
    expect(entry.trust).toBeUndefined();
    const policy = read(join(project, '.gemini/policies/skillhost.toml'));
    expect(policy).toContain('mcpName = "skillhost"');
    expect(policy).toContain(
      'toolName = ["skillhost_activate", "skillhost_read", "skillhost_search"]',
    );
    expect(json(join(home, '.gemini/trustedFolders.json'))).toEqual({
      '/elsewhere': 'TRUST_FOLDER',
      [project]: 'TRUST_FOLDER',
    });
  });

  it('writes through a link to the file it points at, and keeps that file’s mode', async () => {
    const { home, config } = setup();
    const dotfiles = tempDir('skillhost-dotfiles-');
    const real = join(dotfiles, 'cursor-mcp.json');
    writeFileSync(real, '{}\n', { mode: 0o640 });
    mkdirSync(join(home, '.cursor'));
    symlinkSync(real, join(home, '.cursor/mcp.json'));
    const run = await config('--client', 'cursor', '--write', '--name', 'skills');
    expect(run.code, run.stderr).toBe(0);
    expect(json(real).mcpServers.skills.command).toBe(NODE);
    expect(statSync(real).mode & 0o777).toBe(0o640);
    expect(run.stdout).toContain('"skills:skillhost_activate"');
  });

  it('refuses bad options with exit 2', async () => {
    const { config } = setup();
    expect((await config()).code).toBe(2);
    expect((await config('--client', 'emacs')).code).toBe(2);
    expect((await config('--client', 'claude', '--scope', 'global')).code).toBe(2);
    expect((await config('--client', 'claude', '--name', 'a b')).code).toBe(2);
  });
});
