import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuditLog } from '../../src/audit/reader.js';
import { metaOf, Scratch, type SkillTree, skillTree, textOf } from '../adapters/mcp/fixture.js';
import { bin } from '../helpers/built.js';

describe('skillhost mcp over stdio runs a script in bubblewrap (the built bin)', () => {
  const scratch = new Scratch();
  let tree: SkillTree;
  let auditLog: string;
  let client: Client;

  beforeAll(async () => {
    tree = skillTree(scratch);
    const home = scratch.folder('skillhost-mcp-home-');
    auditLog = join(home, 'audit.jsonl');
    client = new Client({ name: 'skillhost-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          bin,
          'mcp',
          '--no-default-sources',
          '--skills',
          tree.skills,
          '--audit-log',
          auditLog,
        ],
        env: { ...getDefaultEnvironment(), SKILLHOST_HOME: join(home, '.skillhost') },
        stderr: 'pipe',
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    scratch.removeAll();
  });

  it('runs the pre-approved script of an activated skill and records the run', async () => {
    await client.callTool({ name: 'skillhost_activate', arguments: { name: 'hello' } });
    const run = await client.callTool({
      name: 'skillhost_run',
      arguments: { name: 'hello', script: 'scripts/greet.sh', args: ['Ada'] },
    });
    expect(run.isError).toBe(false);
    expect(textOf(run)).toContain('hello Ada');
    expect(metaOf(run)).toMatchObject({
      exitCode: 0,
      sandbox: 'bubblewrap',
      approvedBy: 'policy',
    });
    const ran = parseAuditLog(readFileSync(auditLog, 'utf8')).records.find(
      (record) => record.event === 'script-run',
    );
    expect(ran).toMatchObject({ skill_name: 'hello', error: null });
    expect(ran?.tool_or_script_calls[0]).toMatchObject({ exit_code: 0, sandbox: 'bubblewrap' });
  });
});
