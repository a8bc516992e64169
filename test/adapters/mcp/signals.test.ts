import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAuditLog } from '../../../src/audit/reader.js';
import { bin } from '../../helpers/built.js';
import { skillText, tempDir, writeTree } from '../../helpers/temp.js';

/**
 * How the built `skillhost mcp` ends under the signals clients send: Claude Code sends SIGINT
 * and, 100 ms later, SIGTERM; a terminal's Ctrl-C reaches the server and its client together,
 * and the client then sends its own. Every signal after the first must find a handler (not the
 * default action, which kills the process with 130 or 143 before its audit session ends).
 */

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Started {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  readonly auditLog: string;
  readonly stderr: () => string;
}

/** Starts the bin over a fresh skill folder; resolves once it has answered `initialize`. */
async function start(extra: readonly string[]): Promise<Started> {
  const skills = tempDir('skillhost-mcp-signals-');
  writeTree(skills, {
    'hello/SKILL.md': skillText('name: hello\ndescription: Greets people. Use for greetings.'),
  });
  const home = tempDir('skillhost-mcp-signals-home-');
  const auditLog = join(home, 'audit.jsonl');
  const child = spawn(
    process.execPath,
    [bin, 'mcp', ...extra, '--no-default-sources', '--skills', skills, '--audit-log', auditLog],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKILLHOST_HOME: join(home, '.skillhost') },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
    (done) => child.on('exit', (code, signal) => done({ code, signal, at: performance.now() })),
  );
  const ready = new Promise<void>((done, fail) => {
    const check = () => {
      if (extra.includes('--http') ? /serving MCP at/.test(stderr) : /"result"/.test(stdout))
        done();
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      check();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      check();
    });
    child.on('exit', (code) => fail(new Error(`exited ${code} before serving: ${stderr}`)));
  });
  if (!extra.includes('--http')) {
    // A 2025 handshake; stdin then stays open, as a client's does while it shuts down.
    child.stdin?.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'signals-test', version: '1.0.0' },
        },
      })}\n`,
    );
  }
  await ready;
  return { child, exited, auditLog, stderr: () => stderr };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function events(auditLog: string): string[] {
  expect(existsSync(auditLog)).toBe(true);
  const log = parseAuditLog(readFileSync(auditLog, 'utf8'));
  expect(log.problems).toEqual([]);
  return log.records.map((record) => record.event);
}

describe.each([
  ['stdio', []],
  ['http', ['--http', '0']],
] as const)('skillhost mcp over %s, stopped by signals', (transport, extra) => {
  it('exits 0 with its audit session ended under SIGINT, SIGINT at once, then SIGTERM 100 ms later', async () => {
    const server = await start(extra);
    const first = performance.now();
    server.child.kill('SIGINT');
    server.child.kill('SIGINT');
    await sleep(100);
    if (server.child.exitCode === null && server.child.signalCode === null)
      server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit, server.stderr()).toEqual(expect.objectContaining({ code: 0, signal: null }));
    expect(events(server.auditLog).at(-1)).toBe('session-end');
    console.info(
      `skillhost mcp (${transport}): exit 0 ${(exit.at - first).toFixed(0)} ms after the first signal`,
    );
  });

  it('exits 0 under SIGTERM then SIGINT with no pause between', async () => {
    const server = await start(extra);
    server.child.kill('SIGTERM');
    server.child.kill('SIGINT');
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit, server.stderr()).toEqual(expect.objectContaining({ code: 0, signal: null }));
    expect(events(server.auditLog).at(-1)).toBe('session-end');
  });
});
