import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAuditLog } from '../../../src/audit/reader.js';
import { skillText, tempDir, writeTree } from '../../helpers/temp.js';

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(repository, 'dist', 'cli', 'bin.js');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `skillhost mcp --http 0` and resolves with the URL it prints on stderr. */
function start(argv: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, 'mcp', ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = new Promise<URL>((done, fail) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving MCP at (http:\S+)/.exec(stderr);
      if (match?.[1] !== undefined) done(new URL(match[1]));
    });
    child.on('exit', (code) => fail(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

describe('skillhost mcp --http (the built bin)', () => {
  it('serves on a free loopback port, prints the URL, and stops cleanly on SIGTERM', async () => {
    const skills = tempDir('skillhost-mcp-http-');
    writeTree(skills, {
      'hello/SKILL.md': skillText('name: hello\ndescription: Greets people. Use for greetings.'),
    });
    const home = tempDir('skillhost-mcp-http-home-');
    const auditLog = join(home, 'audit.jsonl');
    const server = start(
      ['--http', '0', '--no-default-sources', '--skills', skills, '--audit-log', auditLog],
      { SKILLHOST_HOME: join(home, '.skillhost') },
    );
    const url = await server.url;
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/mcp');
    const client = new Client({ name: 'skillhost-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const activation = await client.callTool({
      name: 'skillhost_activate',
      arguments: { name: 'hello' },
    });
    expect(activation.isError).toBe(false);
    await client.close();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output().stdout).toBe('');
    const events = parseAuditLog(readFileSync(auditLog, 'utf8')).records.map(
      (record) => record.event,
    );
    expect(events).toContain('skill-activate');
    expect(events.at(-1)).toBe('session-end');
  });

  it('exits 1 when the port is taken', async () => {
    const skills = tempDir('skillhost-mcp-http-');
    writeTree(skills, {
      'hello/SKILL.md': skillText('name: hello\ndescription: Greets people. Use for greetings.'),
    });
    const home = tempDir('skillhost-mcp-http-home-');
    const env = { SKILLHOST_HOME: join(home, '.skillhost') };
    const argv = ['--no-default-sources', '--skills', skills, '--audit-log', join(home, 'a.jsonl')];
    const first = start(['--http', '0', ...argv], env);
    const url = await first.url;
    const second = start(['--http', url.port, ...argv], env);
    second.url.catch(() => {});
    expect(await second.exited).toBe(1);
    expect(second.output().stderr).toContain(`cannot serve on 127.0.0.1:${url.port}`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
