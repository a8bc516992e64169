import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, root } from '../helpers/built.js';
import { startModelServer } from '../helpers/model-servers.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * The built bin on a real pseudo-terminal (util-linux `script`): the test types a line (or
 * Ctrl-C) once the screen shows what it waits for, as a person would.
 */
function terminal(argv: readonly string[], env: Record<string, string>) {
  const command = [process.execPath, bin, ...argv].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'dumb', ...env },
  });
  let screen = '';
  const waiting: Array<{ text: string; from: number; resolve: () => void }> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    for (const wait of [...waiting])
      if (screen.indexOf(wait.text, wait.from) !== -1) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  let seen = 0;
  return {
    get screen() {
      return screen;
    },
    /** Waits until `text` shows after what was waited for last. */
    async until(text: string): Promise<void> {
      const from = seen;
      await new Promise<void>((resolve, reject) => {
        if (screen.indexOf(text, from) !== -1) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`"${text}" never showed; the screen:\n${screen}`)),
          30_000,
        );
        waiting.push({
          text,
          from,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      seen = screen.indexOf(text, from) + text.length;
    },
    type(text: string): void {
      child.stdin.write(text);
    },
    closed,
  };
}

describe('skillhost chat on a real terminal', () => {
  it('streams answers, asks inline (yes runs in bubblewrap, no tells the model why), and Ctrl-C interrupts, then leaves', async () => {
    const workspace = writeTree(tempDir('skillhost-chat-'), {
      'notes.txt': 'three\nlines\nhere\n',
    });
    const server = await startModelServer({
      anthropic: [
        { text: 'Hello from the model.' },
        {
          toolCalls: [
            { id: 'toolu_1', name: 'workspace_bash', input: { command: 'wc -l notes.txt' } },
          ],
        },
        { text: 'It has three lines.' },
        {
          toolCalls: [{ id: 'toolu_2', name: 'workspace_bash', input: { command: 'rm -rf /' } }],
        },
        { text: 'Understood, not run.' },
        { hang: true },
      ],
    });
    const home = join(tempDir('skillhost-home-'), '.skillhost');
    const examples = join(root, 'examples');
    const chat = terminal(
      [
        'chat',
        '--no-default-sources',
        '--skills',
        join(examples, 'skills'),
        '--agents',
        join(examples, 'agents'),
        '--provider',
        'anthropic',
        '--workspace',
        workspace,
        'code-analyst',
      ],
      {
        ANTHROPIC_API_KEY: 'sk-ant-chat-terminal-test-0123456789',
        ANTHROPIC_BASE_URL: server.url,
        SKILLHOST_HOME: home,
      },
    );
    await chat.until('› ');
    chat.type('hello\n');
    await chat.until('Hello from the model.');
    await chat.until('── done · 1 step');
    await chat.until('› ');
    chat.type('Count the lines of notes.txt\n');
    await chat.until('? bash: wc -l notes.txt');
    await chat.until('[q]uit: ');
    chat.type('y\n');
    await chat.until('▸ workspace_bash wc -l notes.txt … ok');
    await chat.until('It has three lines.');
    await chat.until('── done · 2 steps');
    expect(JSON.stringify(server.requests[2]?.body.messages.at(-1))).toMatch(
      /3 notes\.txt[\s\S]*sandbox: bubblewrap/,
    );
    await chat.until('› ');
    chat.type('Clean up\n');
    await chat.until('? bash: rm -rf /');
    await chat.until('[q]uit: ');
    chat.type('n\n');
    await chat.until('Reason, for the model (optional): ');
    chat.type('never that\n');
    await chat.until('Understood, not run.');
    const refused = JSON.stringify(server.requests[4]?.body.messages.at(-1));
    expect(refused).toContain('PERMISSION_DENIED');
    expect(refused).toContain('The user refused: never that');
    await chat.until('› ');
    chat.type('Wait for it\n');
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (server.requests.length >= 6) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    chat.type('\x03');
    await chat.until('interrupting the turn');
    await chat.until('── interrupted');
    await chat.until('› ');
    chat.type('\x03');
    expect(await chat.closed).toBe(130);
    expect(chat.screen).toMatch(/--resume [0-9a-f-]{36}/);
  });
});
