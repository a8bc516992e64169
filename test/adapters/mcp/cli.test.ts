import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

describe('skillhost mcp (the command line)', () => {
  it('documents the transports, the missing confirmations and the exit codes', async () => {
    const run = await runCli(['mcp', '--help']);
    expect(run.code).toBe(0);
    for (const text of ['--http PORT', '--host HOST', 'PERMISSION_REQUIRED', 'Exit codes:'])
      expect(run.stdout).toContain(text);
  });

  it('is listed in the main help', async () => {
    const run = await runCli(['--help']);
    expect(run.stdout).toMatch(/\n {2}mcp +Serve the skills as an MCP server/);
  });

  it.each([
    [['mcp', 'extra'], 'mcp takes options only'],
    [['mcp', '--http', 'eighty'], "option '--http' needs a whole number"],
    [['mcp', '--http', '70000'], '--http needs a port from 0 to 65535'],
    [['mcp', '--host', '0.0.0.0'], '--host needs --http'],
    [['mcp', '--no-default-sources'], '--no-default-sources needs at least one'],
  ])('refuses %j as a usage error', async (argv, message) => {
    const run = await runCli(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });

  it('takes --allow-origin only with --http, and only real origins', async () => {
    const alone = await runCli(['mcp', '--allow-origin', 'http://localhost:3000']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--allow-origin needs --http');
    const bad = await runCli(['mcp', '--http', '0', '--allow-origin', 'localhost:3000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--allow-origin needs an origin');
    const help = await runCli(['mcp', '--help']);
    expect(help.stdout).toContain('--allow-origin ORIGIN');
  });
});
