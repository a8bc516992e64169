import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { skillText, tempDir, writeTree } from '../../helpers/temp.js';

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(repository, 'dist', 'cli', 'bin.js');

async function connect(command: string, args: readonly string[], env: Record<string, string>) {
  let stderr = '';
  const transport = new StdioClientTransport({ command, args: [...args], env, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'skillhost-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('skillhost mcp for a given client (the built bin)', () => {
  it('writes a client configuration whose command starts this server as it is', async () => {
    const home = tempDir('skillhost-config-home-');
    const project = tempDir('skillhost-config-project-');
    const skills = tempDir('skillhost-config-skills-');
    writeTree(skills, {
      'hello/SKILL.md': skillText('name: hello\ndescription: Greets people. Use for greetings.'),
    });
    const env = { HOME: home, PATH: '/usr/bin:/bin', SKILLHOST_HOME: join(home, '.skillhost') };
    const written = spawnSync(
      process.execPath,
      [
        bin,
        'mcp',
        'config',
        '--client',
        'claude',
        '--write',
        '--',
        '--no-default-sources',
        '--skills',
        skills,
      ],
      { cwd: project, env, encoding: 'utf8' },
    );
    expect(written.status, written.stderr).toBe(0);
    const entry = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers.skillhost;
    // Not on PATH: the absolute paths of the running node and of this bin.
    expect(entry.command).toBe(process.execPath);
    expect(entry.args[0]).toBe(realpathSync(bin));
    const { client } = await connect(entry.command, entry.args, env);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('skillhost_activate');
    expect(client.getInstructions()).toContain('<name>hello</name>');
    await client.close();
  });

  it('names it skillhost when that is this bin on PATH, and never another one', () => {
    const home = tempDir('skillhost-config-home-');
    const onPath = tempDir('skillhost-path-');
    // As npm links an installed package's bin: executable, on PATH under its name.
    chmodSync(bin, 0o755);
    symlinkSync(bin, join(onPath, 'skillhost'));
    const other = tempDir('skillhost-other-');
    mkdirSync(join(other, 'bin'));
    writeFileSync(join(other, 'bin', 'skillhost'), '#!/bin/sh\necho someone else\n');
    chmodSync(join(other, 'bin', 'skillhost'), 0o755);
    const commandFor = (path: string) => {
      const run = spawnSync(
        process.execPath,
        [bin, 'mcp', 'config', '--client', 'cursor', '--write'],
        {
          cwd: home,
          env: { HOME: home, PATH: path },
          encoding: 'utf8',
        },
      );
      expect(run.status, run.stderr).toBe(0);
      return JSON.parse(readFileSync(join(home, '.cursor/mcp.json'), 'utf8')).mcpServers.skillhost;
    };
    expect(commandFor(`${onPath}:/usr/bin:/bin`)).toEqual({
      command: 'skillhost',
      args: ['mcp', '--client', 'cursor'],
    });
    expect(commandFor(`${join(other, 'bin')}:${onPath}:/usr/bin:/bin`).command).toBe(
      process.execPath,
    );
  });

  it('leaves out the skill folders the client serves itself (--client claude)', async () => {
    const home = tempDir('skillhost-client-home-');
    const project = tempDir('skillhost-client-project-');
    writeTree(project, {
      '.claude/skills/claude-only/SKILL.md': skillText(
        'name: claude-only\ndescription: In .claude/skills. Use for Claude.',
      ),
      '.agents/skills/shared/SKILL.md': skillText(
        'name: shared\ndescription: In .agents/skills. Use anywhere.',
      ),
    });
    const env = { HOME: home, PATH: '/usr/bin:/bin', SKILLHOST_HOME: join(home, '.skillhost') };
    const base = [bin, 'mcp', '--project', project, '--trust'];
    const all = await connect(process.execPath, base, env);
    expect(all.client.getInstructions()).toContain('<name>claude-only</name>');
    await all.client.close();

    const forClaude = await connect(process.execPath, [...base, '--client', 'claude'], env);
    const instructions = forClaude.client.getInstructions() ?? '';
    expect(instructions).toContain('<name>shared</name>');
    expect(instructions).not.toContain('claude-only');
    const { prompts } = await forClaude.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['shared']);
    // Claude Code shows the model the instructions: no second catalog in the tool description.
    const { tools } = await forClaude.client.listTools();
    const activate = tools.find((tool) => tool.name === 'skillhost_activate');
    expect(activate?.description).not.toContain('Available skills');
    expect(forClaude.stderr()).toContain(
      `leaving out ${join(project, '.claude/skills')}: Claude Code serves it itself`,
    );
    await forClaude.client.close();

    // Gemini CLI reads .agents/skills itself: only .claude/skills is left to serve.
    const forGemini = await connect(process.execPath, [...base, '--client', 'gemini'], env);
    expect(forGemini.client.getInstructions()).toContain('<name>claude-only</name>');
    expect(forGemini.client.getInstructions()).not.toContain('<name>shared</name>');
    const geminiTools = await forGemini.client.listTools();
    expect(
      geminiTools.tools.find((tool) => tool.name === 'skillhost_activate')?.description,
    ).toContain('**claude-only**: In .claude/skills. Use for Claude.');
    await forGemini.client.close();
  });
});
