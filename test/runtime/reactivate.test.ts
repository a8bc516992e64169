import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/node/hash.js';
import { world } from '../helpers/runtime.js';
import { skillText } from '../helpers/temp.js';

/** Re-activation by content hash: what a skills-state stub's handle does after a compaction. */

const encoder = new TextEncoder();

function hashOf(text: string): string {
  return sha256(encoder.encode(text));
}

describe('skillhost_activate with the hash from a stub', () => {
  it('gives the same body back when the content still has that hash', async () => {
    const w = world({ files: { 'references/guide.md': 'G\n' } });
    const first = await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    expect(first.isError).toBe(false);
    const hash = first.data?.contentHash as string;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.data).toMatchObject({ name: 'tool', source: 'test', trust: 'trusted' });
    // By name alone, the runtime deduplicates: the body is not sent twice.
    const again = await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    expect(again.text).toContain('already active');
    // With the hash, the body comes back whole, as it was.
    const back = await w.runtime.callTool('skillhost_activate', { name: 'tool', hash });
    expect(back.isError).toBe(false);
    expect(back.text).toBe(first.text);
    expect(back.data).toMatchObject({ reactivated: true, changed: false, previousHash: hash });
    // `sha256:HEX`, upper case, is the same hash.
    const spelled = await w.runtime.callTool('skillhost_activate', {
      name: 'tool',
      hash: `sha256:${hash.toUpperCase()}`,
    });
    expect(spelled.data).toMatchObject({ changed: false });
  });

  it('gives the new body with a notice when the file changed', async () => {
    const w = world();
    const first = await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    const hash = first.data?.contentHash as string;
    const changed = skillText(
      'name: tool\ndescription: Runs tools. Use for tests.',
      'NEW-BODY-TEXT\n',
    );
    writeFileSync(join(w.root, 'tool', 'SKILL.md'), changed);
    const back = await w.runtime.callTool('skillhost_activate', { name: 'tool', hash });
    expect(back.isError).toBe(false);
    expect(back.text).toMatch(/^Notice: skill tool changed since it was activated/);
    expect(back.text).toContain(hash);
    expect(back.text).toContain(hashOf(changed));
    expect(back.text).toContain('NEW-BODY-TEXT');
    expect(back.data).toMatchObject({
      changed: true,
      previousHash: hash,
      contentHash: hashOf(changed),
    });
  });

  it('asks again for an untrusted skill whose file changed, and not for the same content', async () => {
    const w = world({ trust: 'untrusted', answers: ['yes', 'yes'] });
    const first = await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    expect(first.isError).toBe(false);
    expect(w.questions).toHaveLength(1);
    const hash = first.data?.contentHash as string;
    // The same content was approved in this session: bringing it back asks nothing.
    const same = await w.runtime.callTool('skillhost_activate', { name: 'tool', hash });
    expect(same.isError).toBe(false);
    expect(w.questions).toHaveLength(1);
    const changed = skillText('name: tool\ndescription: Runs tools. Use for tests.', 'CHANGED\n');
    writeFileSync(join(w.root, 'tool', 'SKILL.md'), changed);
    const back = await w.runtime.callTool('skillhost_activate', { name: 'tool', hash });
    expect(w.questions).toHaveLength(2);
    expect(w.questions[1]).toMatchObject({ kind: 'activation', contentHash: hashOf(changed) });
    expect(back.isError).toBe(false);
    expect(back.text).toContain('CHANGED');
    // Refused: the changed body never reaches the model.
    writeFileSync(
      join(w.root, 'tool', 'SKILL.md'),
      skillText('name: tool\ndescription: x', 'THIRD\n'),
    );
    const refused = await w.runtime.callTool('skillhost_activate', {
      name: 'tool',
      hash: hashOf(changed),
    });
    expect(w.questions).toHaveLength(3);
    expect(refused).toMatchObject({ isError: true, code: 'PERMISSION_DENIED' });
    expect(refused.text).not.toContain('THIRD');
  });

  it('fails with SKILL_REMOVED when the skill is gone, and refuses a malformed hash', async () => {
    const w = world();
    const first = await w.runtime.callTool('skillhost_activate', { name: 'tool' });
    const hash = first.data?.contentHash as string;
    rmSync(join(w.root, 'tool'), { recursive: true });
    const gone = await w.runtime.callTool('skillhost_activate', { name: 'tool', hash });
    expect(gone).toMatchObject({ isError: true, code: 'SKILL_REMOVED' });
    expect(gone.text).toContain("'tool'");
    expect(gone.text).toContain(hash.slice(0, 12));
    const bad = await w.runtime.callTool('skillhost_activate', { name: 'other', hash: 'abc' });
    expect(bad).toMatchObject({ isError: true, code: 'TOOL_INPUT_INVALID' });
    expect(bad.text).toContain('"hash"');
  });
});
