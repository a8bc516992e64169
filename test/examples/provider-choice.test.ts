import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseProvider, localServer } from '../../examples/provider-choice.mjs';
import { tempDir } from '../helpers/temp.js';

/**
 * Which model `npm start`'s agent run uses, with a PATH and a home made at test time: a fake
 * `claude` that fails if it is ever run (the choice reads files, it never runs the program).
 */

function fakeClaudeOnPath(): string {
  const bin = tempDir('skillhost-path-');
  const claude = join(bin, 'claude');
  writeFileSync(claude, '#!/bin/sh\necho "the choice must not run claude" >&2\nexit 99\n');
  chmodSync(claude, 0o755);
  return bin;
}

function loggedInHome(): string {
  const home = tempDir('skillhost-home-');
  mkdirSync(join(home, '.claude'));
  writeFileSync(join(home, '.claude', '.credentials.json'), '{"claudeAiOauth":{}}');
  return home;
}

const none = async () => undefined;

describe("the example agent run's choice of provider", () => {
  it('takes a logged-in claude first, even over API keys', async () => {
    const choice = await chooseProvider({
      env: { PATH: fakeClaudeOnPath(), ANTHROPIC_API_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test' },
      home: loggedInHome(),
      findLocal: none,
    });
    expect(choice.kind).toBe('claude');
    expect(choice.args).toEqual(['--provider', 'claude']);
    expect(choice.label).toContain('.credentials.json');
  });

  it('counts the login of a token, or of the account the config records, and not claude alone', async () => {
    const path = fakeClaudeOnPath();
    const bare = tempDir('skillhost-home-');
    expect((await chooseProvider({ env: { PATH: path }, home: bare, findLocal: none })).kind).toBe(
      'scripted',
    );
    const token = await chooseProvider({
      env: { PATH: path, CLAUDE_CODE_OAUTH_TOKEN: 'tok' },
      home: bare,
      findLocal: none,
    });
    expect(token.kind).toBe('claude');
    const account = tempDir('skillhost-home-');
    writeFileSync(
      join(account, '.claude.json'),
      '{"oauthAccount":{"emailAddress":"me@example.com"}}',
    );
    expect(
      (await chooseProvider({ env: { PATH: path }, home: account, findLocal: none })).kind,
    ).toBe('claude');
    // An empty credentials file, or a config without an account, is no login.
    const empty = tempDir('skillhost-home-');
    mkdirSync(join(empty, '.claude'));
    writeFileSync(join(empty, '.claude', '.credentials.json'), '');
    writeFileSync(join(empty, '.claude.json'), '{"numStartups":3}');
    expect((await chooseProvider({ env: { PATH: path }, home: empty, findLocal: none })).kind).toBe(
      'scripted',
    );
  });

  it('needs claude on PATH for its login to count: then the keys, in order', async () => {
    const home = loggedInHome();
    const empty = tempDir('skillhost-path-');
    const anthropic = await chooseProvider({
      env: { PATH: empty, ANTHROPIC_API_KEY: 'sk-a', OPENAI_API_KEY: 'sk-o' },
      home,
      findLocal: none,
    });
    expect(anthropic).toMatchObject({ kind: 'anthropic', args: ['--provider', 'anthropic'] });
    const openai = await chooseProvider({
      env: { PATH: empty, OPENAI_API_KEY: 'sk-o' },
      home,
      findLocal: none,
    });
    expect(openai.kind).toBe('openai');
    expect(openai.args.slice(0, 2)).toEqual(['--provider', 'openai']);
  });

  it('then a local OpenAI-compatible server, then the scripted model, labelled as such', async () => {
    const env = { PATH: tempDir('skillhost-path-') };
    const home = tempDir('skillhost-home-');
    const local = await chooseProvider({
      env,
      home,
      findLocal: async () => ({ base: 'http://127.0.0.1:11434/v1', model: 'qwen3' }),
    });
    expect(local.args).toEqual([
      '--provider',
      'openai-compatible',
      '--base-url',
      'http://127.0.0.1:11434/v1',
      '--model',
      'qwen3',
    ]);
    const scripted = await chooseProvider({ env, home, findLocal: none });
    expect(scripted).toMatchObject({ kind: 'scripted', args: [] });
    expect(scripted.label).toContain('SCRIPTED LOCAL MODEL');
  });

  it('finds a local server by its model list on loopback, and passes over a port with nothing', async () => {
    const server = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(request.url === '/v1/models' ? '{"data":[{"id":"local-model"}]}' : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // A closed port first: refused at once, then the one that answers.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      expect(
        await localServer([`http://127.0.0.1:${closedPort}/v1`, `http://127.0.0.1:${port}/v1`]),
      ).toEqual({ base: `http://127.0.0.1:${port}/v1`, model: 'local-model' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
