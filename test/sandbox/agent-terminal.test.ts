import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, root } from '../helpers/built.js';
import { startModelServer } from '../helpers/model-servers.js';
import { tempDir } from '../helpers/temp.js';

/** Runs the built bin on a real pseudo-terminal (util-linux `script`), typing `typed`, without blocking this process. */
function onTerminal(
  argv: readonly string[],
  typed: string,
  env: Record<string, string>,
  /** Types Ctrl-C once this is true (checked every few milliseconds), instead of ending the input. */
  interruptWhen?: () => boolean,
) {
  const command = [process.execPath, bin, ...argv].map((word) => `'${word}'`).join(' ');
  return new Promise<{ status: number | null; stdout: string }>((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    if (interruptWhen === undefined) child.stdin.end(typed);
    else {
      const timer = setInterval(() => {
        if (!interruptWhen()) return;
        clearInterval(timer);
        child.stdin.write('\x03');
      }, 5);
      child.on('close', () => clearInterval(timer));
    }
    child.on('close', (status) => resolve({ status, stdout }));
  });
}

const examples = join(root, 'examples');
const base = [
  '--no-default-sources',
  '--skills',
  join(examples, 'skills'),
  '--agents',
  join(examples, 'agents'),
];
const call = {
  toolCalls: [
    {
      id: 'toolu_1',
      name: 'skillhost_run',
      input: { name: 'code-analysis', script: 'scripts/count_lines.sh', args: ['.'] },
    },
  ],
};

describe('agent run asks on a real terminal', () => {
  it('"y" runs the script in bubblewrap; "n" with a reason tells the model', async () => {
    const server = await startModelServer({
      anthropic: [call, { text: 'Counted.' }, call, { text: 'Not counted.' }],
    });
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-terminal-test-0123456789',
      ANTHROPIC_BASE_URL: server.url,
      SKILLHOST_HOME: join(tempDir('skillhost-home-'), '.skillhost'),
    };
    const argv = [
      'agent',
      'run',
      ...base,
      '--provider',
      'anthropic',
      '--workspace',
      join(examples, 'skills'),
      'code-analyst',
      'Count the lines',
    ];
    const yes = await onTerminal(argv, 'y\n', env);
    expect(yes.stdout).toContain('? run scripts/count_lines.sh "." (sh) of code-analysis');
    expect(yes.stdout).toContain('[y]es once / [s]ession');
    expect(yes.stdout).toContain('Counted.');
    expect(yes.status).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body.messages.at(-1))).toContain(
      'sandbox: bubblewrap',
    );

    const no = await onTerminal(argv, 'n\nnot now\n', env);
    expect(no.status).toBe(0);
    expect(no.stdout).toContain('Not counted.');
    const refused = JSON.stringify(server.requests[3]?.body.messages.at(-1));
    expect(refused).toContain('PERMISSION_DENIED');
    expect(refused).toContain('The user refused: not now');
  });

  it('Ctrl-C interrupts the run: exit 130, and the session can be resumed', async () => {
    const server = await startModelServer({ anthropic: [{ hang: true }] });
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-terminal-test-0123456789',
      ANTHROPIC_BASE_URL: server.url,
      SKILLHOST_HOME: join(tempDir('skillhost-home-'), '.skillhost'),
    };
    const argv = ['agent', 'run', ...base, '--provider', 'anthropic', 'code-analyst', 'Wait'];
    const run = await onTerminal(argv, '', env, () => server.requests.length > 0);
    expect(run.status).toBe(130);
    expect(run.stdout).toContain('interrupted');
    expect(run.stdout).toMatch(/--resume [0-9a-f-]{36}/);
  });
});
