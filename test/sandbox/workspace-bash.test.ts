import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspaceFiles } from '../../src/node/workspace-files.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import { world } from '../helpers/runtime.js';
import { ownedWorkspace } from '../helpers/temp.js';

// The workspace_bash tool runs its command in bubblewrap as a skill's script runs: the
// workspace as granted, its secret files hidden, no network, the limits.

const project = (files: Record<string, string>) => ownedWorkspace(files, 'skillhost-bash-');

function bashWorld(root: string, writable: boolean) {
  return world({
    runner: 'bubblewrap',
    answers: ['yes', 'yes', 'yes'],
    workspace: {
      path: root,
      writable,
      ...(writable ? {} : { outputs: join(root, '.skillhost/runs') }),
    },
    options: { workspaceTools: true, policy: { tools: [...CANONICAL_TOOLS] } },
    deps: { workspaceFiles: createWorkspaceFiles },
  });
}

const FILES = {
  'README.md': '# Demo\n',
  '.env': 'TOKEN=BASH-ENV-SECRET\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/hooks/.keep': '',
};

describe('workspace_bash in bubblewrap', () => {
  it('sees the read-only workspace without its secrets; what it writes is kept apart', async () => {
    const root = project(FILES);
    const w = bashWorld(root, false);
    const result = await w.runtime.callTool('workspace_bash', {
      command:
        'pwd; cat README.md; cat .env || echo "env hidden"; echo made > out.txt && echo wrote; touch README.md 2>/dev/null || echo "readme read-only"',
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(root);
    expect(result.text).toContain('# Demo');
    expect(result.text).toContain('env hidden');
    expect(result.text).not.toContain('BASH-ENV-SECRET');
    expect(result.text).toContain('wrote');
    expect(result.text).toContain('readme read-only');
    expect(result.text).toMatch(/<written count="1">\nout\.txt \(5 bytes\)/);
    expect(result.text).toContain('sandbox: bubblewrap');
    expect(existsSync(join(root, 'out.txt'))).toBe(false);
    expect(w.questions[0]).toMatchObject({ kind: 'tool', tool: 'workspace_bash' });
    const call = w.records().find((record) => record.event === 'tool-call');
    expect(call?.details).toMatchObject({ exit_code: 0, sandbox: 'bubblewrap' });
    expect(w.intact()).toBe(true);
  });

  it('writes in place in a writable workspace, never into .git', async () => {
    const root = project(FILES);
    const w = bashWorld(root, true);
    const result = await w.runtime.callTool('workspace_bash', {
      command:
        'echo made > made.txt; echo evil > .git/hooks/pre-commit 2>/dev/null || echo "hooks protected"',
    });
    expect(result.isError, result.text).toBe(false);
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('made\n');
    expect(result.text).toContain('hooks protected');
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('has no network, and stops at its timeout', async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.end('reached');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    try {
      const w = bashWorld(project(FILES), false);
      const blocked = await w.runtime.callTool('workspace_bash', {
        command: `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED) 2>/dev/null || echo "no network"; ls /sys/class/net`,
      });
      expect(blocked.text).toContain('no network');
      expect(blocked.text).not.toContain('CONNECTED');
      expect(hits).toBe(0);
      const slow = await w.runtime.callTool('workspace_bash', {
        command: 'sleep 30 & sleep 30; echo never',
        timeout_seconds: 1,
      });
      expect(slow.isError).toBe(true);
      expect(slow.code).toBe('SCRIPT_TIMEOUT');
      expect(slow.text).not.toContain('never');
    } finally {
      server.close();
    }
  });
});
