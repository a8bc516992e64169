import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCliAgentDriver, cursorPrintWarning } from '../../src/node/cli-agents.js';
import { bin, root } from '../helpers/built.js';
import { tempDir } from '../helpers/temp.js';

describe('the command-line providers', () => {
  it("gives agents this package's own skillhost mcp, by the absolute path of node", async () => {
    const built = (await import(
      pathToFileURL(join(root, 'dist', 'node', 'cli-agents.js')).href
    )) as typeof import('../../src/node/cli-agents.js');
    expect(built.skillhostBin()).toBe(bin);
    expect(existsSync(built.skillhostBin())).toBe(true);
    const server = built.skillhostMcpServer({ args: ['--skills', '/s'], env: { A: '1' } });
    expect(server).toEqual({
      transport: 'stdio',
      name: 'skillhost',
      command: process.execPath,
      args: [bin, 'mcp', '--skills', '/s'],
      env: { A: '1' },
    });
    expect(server.transport === 'stdio' && server.command.startsWith('/')).toBe(true);
  });

  it('makes a driver per provider, and refuses what is not one', () => {
    const base = { env: { PATH: '/usr/bin' }, cwd: tempDir() };
    expect(createCliAgentDriver({ ...base, provider: 'claude' }).provider).toBe('claude');
    expect(createCliAgentDriver({ ...base, provider: 'gemini' }).provider).toBe('gemini');
    expect(createCliAgentDriver({ ...base, provider: 'cursor' }).provider).toBe('cursor');
    expect(
      createCliAgentDriver({ ...base, provider: 'acp', acpCommand: 'my-agent --acp' }).provider,
    ).toBe('acp');
    expect(() => createCliAgentDriver({ ...base, provider: 'acp' })).toThrow(
      expect.objectContaining({ code: 'CLI_AGENT_COMMAND_INVALID' }),
    );
    expect(() => createCliAgentDriver({ ...base, provider: 'openai' })).toThrow(
      expect.objectContaining({ code: 'MODEL_PROVIDER_UNKNOWN' }),
    );
  });

  it("allows Cursor's print mode only when the policy would ask about nothing, with a warning", () => {
    expect(() => cursorPrintWarning({ tools: ['bash'] })).toThrow(
      expect.objectContaining({ code: 'CLI_AGENT_MODE_UNSAFE' }),
    );
    expect(() =>
      cursorPrintWarning({
        tools: ['bash', 'read'],
        defaultDecision: 'deny',
        defaults: { read: 'ask' },
      }),
    ).toThrow(expect.objectContaining({ code: 'CLI_AGENT_MODE_UNSAFE' }));
    expect(
      cursorPrintWarning({
        tools: ['bash', 'read'],
        defaultDecision: 'deny',
        defaults: { read: 'allow' },
      }),
    ).toContain('cannot ask for approval');
  });

  it('says how to install a missing agent', async () => {
    const driver = createCliAgentDriver({
      provider: 'gemini',
      command: '/nonexistent/gemini',
      env: { PATH: '/usr/bin' },
      cwd: tempDir(),
    });
    await expect(driver.probe()).rejects.toMatchObject({
      code: 'CLI_AGENT_NOT_INSTALLED',
      message: expect.stringContaining('npm install -g @google/gemini-cli'),
    });
  });
});
