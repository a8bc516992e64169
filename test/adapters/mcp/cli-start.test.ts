import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { addSkill, Scratch, type SkillTree, skillTree } from './fixture.js';

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(repository, 'dist', 'cli', 'bin.js');

/** A `skillhost mcp` started over stdio with a real SDK client; closed by `stop`. */
async function connect(home: string, tree: SkillTree, extra: readonly string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--no-default-sources', '--skills', tree.skills, ...extra],
    env: { ...getDefaultEnvironment(), SKILLHOST_HOME: home },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'skillhost-test', version: '1.0.0' });
  const changed: string[] = [];
  let heard: () => void = () => {};
  const told = new Promise<void>((done) => {
    heard = done;
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changed.push('tools');
    heard();
  });
  await client.connect(transport);
  return { client, changed, told, stderr: () => stderr };
}

/** The saved start-up states in the index cache. */
function startStates(home: string): string[] {
  const cache = join(home, 'cache');
  return existsSync(cache)
    ? readdirSync(cache)
        .filter((name) => name.startsWith('mcp-start-') && name.endsWith('.json'))
        .map((name) => join(cache, name))
    : [];
}

describe('skillhost mcp started again over the same skills (the built bin)', () => {
  const scratch = new Scratch();
  afterAll(() => scratch.removeAll());

  it('answers initialize from what the last run served, then tells the client what changed', async () => {
    expect(existsSync(bin), 'run npm run build first').toBe(true);
    const tree = skillTree(scratch);
    const home = join(scratch.folder('skillhost-mcp-start-'), '.skillhost');
    const first = await connect(home, tree);
    const served = first.client.getInstructions() ?? '';
    expect(served).toContain('hello');
    await first.client.close();
    const [state] = startStates(home);
    expect(state).toBeDefined();
    const saved = JSON.parse(readFileSync(state ?? '', 'utf8'));
    expect(saved.instructions).toBe(served);

    // A planted state shows where the answer came from: its instructions are what the client gets.
    writeFileSync(state ?? '', JSON.stringify({ ...saved, instructions: 'Planted instructions.' }));
    addSkill(tree, 'later');
    const second = await connect(home, tree);
    expect(second.client.getInstructions()).toBe('Planted instructions.');
    await second.told;
    const { tools } = await second.client.listTools();
    expect(tools.find((tool) => tool.name === 'skillhost_activate')?.description).toContain(
      'later',
    );
    await second.client.close();

    const third = await connect(home, tree);
    const instructions = third.client.getInstructions() ?? '';
    expect(instructions).toContain('later');
    expect(instructions).toContain('hello');
    await third.client.close();
  });

  it('answers correctly over a damaged saved state, and saves a sound one', async () => {
    const tree = skillTree(scratch);
    const home = join(scratch.folder('skillhost-mcp-start-'), '.skillhost');
    const first = await connect(home, tree);
    const served = first.client.getInstructions();
    await first.client.close();
    const [state] = startStates(home);
    writeFileSync(state ?? '', '{"key": [1, 2');
    const again = await connect(home, tree);
    expect(again.client.getInstructions()).toBe(served);
    const { tools } = await again.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('skillhost_activate');
    await again.client.close();
    expect(again.stderr()).toContain(`saved start-up state ${state} is ignored: it is not JSON`);
    expect(JSON.parse(readFileSync(state ?? '', 'utf8')).instructions).toBe(served);
  });

  it('never answers from the state saved for another budget', async () => {
    const tree = skillTree(scratch);
    const home = join(scratch.folder('skillhost-mcp-start-'), '.skillhost');
    const first = await connect(home, tree);
    await first.client.close();
    const [state] = startStates(home);
    const saved = JSON.parse(readFileSync(state ?? '', 'utf8'));
    writeFileSync(state ?? '', JSON.stringify({ ...saved, instructions: 'Planted instructions.' }));
    const other = await connect(home, tree, ['--budget', '4000']);
    expect(other.client.getInstructions()).toContain('hello');
    await other.client.close();
    expect(startStates(home)).toHaveLength(2);
    const noCache = await connect(home, tree, ['--no-cache']);
    expect(noCache.client.getInstructions()).toContain('hello');
    await noCache.client.close();
  });
});
