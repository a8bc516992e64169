import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspaceFiles } from '../../src/node/workspace-files.js';
import { agentTools, CANONICAL_TOOLS } from '../../src/policy/tools.js';
import type { ApprovalAnswer } from '../../src/runtime/types.js';
import { workspacePath } from '../../src/runtime/workspace-paths.js';
import { compileGlob, lineMatcher } from '../../src/runtime/workspace-search.js';
import { type WorldOptions, world } from '../helpers/runtime.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const ALL = [
  'workspace_read',
  'workspace_list',
  'workspace_glob',
  'workspace_grep',
  'workspace_write',
  'workspace_edit',
  'workspace_bash',
];

function project(): string {
  const root = tempDir('skillhost-project-');
  writeTree(root, {
    'README.md': '# Demo\n\nA demo project.\n',
    'src/main.py': 'import os\n\ndef main():\n    print("hello")\n',
    'src/util.py': 'def helper():\n    return 42  # TODO: tidy\n',
    'docs/guide.md': 'TODO: write the guide\n',
    '.env': 'TOKEN=PROJECT-ENV-SECRET\n',
    'bin/blob.bin': new Uint8Array([0, 1, 2, 3, 0, 255]),
    'terminal.txt': 'plain \u001b[2J\u001b]52;c;Y2xpcA==\u0007text\n',
  });
  return root;
}

function hostWorld(
  options: WorldOptions & { readonly writable?: boolean; readonly root?: string } = {},
) {
  const root = options.root ?? project();
  const w = world({
    ...options,
    workspace: { path: root, writable: options.writable === true },
    options: { workspaceTools: true, ...options.options },
    deps: { workspaceFiles: createWorkspaceFiles, ...options.deps },
  });
  return { ...w, project: root };
}

describe('the host tools offered', () => {
  it('are offered only with a workspace, within the ceiling, write and edit only when writable', () => {
    const none = world();
    expect(none.runtime.tools().some((tool) => tool.name.startsWith('workspace_'))).toBe(false);
    const readOnly = hostWorld();
    expect(readOnly.runtime.tools().map((tool) => tool.name)).toEqual([
      'skillhost_activate',
      'skillhost_read',
      'skillhost_run',
      'skillhost_search',
      'workspace_read',
      'workspace_list',
      'workspace_glob',
      'workspace_grep',
      'workspace_bash',
    ]);
    const writable = hostWorld({ writable: true });
    expect(writable.runtime.tools().map((tool) => tool.name)).toEqual(expect.arrayContaining(ALL));
    const narrow = hostWorld({
      writable: true,
      options: { workspaceTools: true, policy: { tools: ['read', 'grep', 'activate_skill'] } },
    });
    expect(narrow.runtime.tools().map((tool) => tool.name)).toEqual([
      'skillhost_activate',
      'workspace_read',
      'workspace_grep',
    ]);
    // A tool that is not offered does not answer.
    return narrow.runtime.callTool('workspace_bash', { command: 'echo hi' }).then((result) => {
      expect(result.code).toBe('TOOL_UNKNOWN');
    });
  });

  it('describe themselves with truthful annotations', () => {
    const { runtime } = hostWorld({ writable: true });
    const byName = new Map(runtime.tools().map((tool) => [tool.name, tool]));
    expect(byName.get('workspace_read')?.annotations.readOnlyHint).toBe(true);
    expect(byName.get('workspace_write')?.annotations.destructiveHint).toBe(true);
    expect(byName.get('workspace_bash')?.annotations).toMatchObject({
      readOnlyHint: false,
      openWorldHint: false,
    });
    expect(byName.get('workspace_grep')?.inputSchema.required).toEqual(['pattern']);
  });
});

describe('reading, listing and searching the workspace', () => {
  it('reads with line numbers, without asking, and records the call', async () => {
    const w = hostWorld();
    const result = await w.runtime.callTool('workspace_read', { path: 'src/main.py' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('     3\tdef main():');
    const part = await w.runtime.callTool('workspace_read', {
      path: `${w.project}/src/main.py`,
      offset: 3,
      limit: 1,
    });
    expect(part.text).toContain('     3\tdef main():');
    expect(part.text).not.toContain('import os');
    expect(part.text).toContain('read on with offset 4');
    const events = w.records().map((record) => record.event);
    expect(events.filter((event) => event === 'tool-call')).toHaveLength(2);
    expect(w.intact()).toBe(true);
  });

  it('refuses paths outside the workspace, secrets and binary content, with codes', async () => {
    const w = hostWorld();
    symlinkSync('/etc/hostname', join(w.project, 'host'));
    const code = async (input: Record<string, unknown>) =>
      (await w.runtime.callTool('workspace_read', input)).code;
    expect(await code({ path: '../x' })).toBe('WORKSPACE_PATH_INVALID');
    expect(await code({ path: '/etc/passwd' })).toBe('WORKSPACE_PATH_INVALID');
    expect(await code({ path: '~/.ssh/id_rsa' })).toBe('WORKSPACE_PATH_INVALID');
    expect(await code({ path: 'host' })).toBe('WORKSPACE_PATH_INVALID');
    expect(await code({ path: '.env' })).toBe('WORKSPACE_FILE_HIDDEN');
    expect(await code({ path: 'nope.txt' })).toBe('WORKSPACE_FILE_NOT_FOUND');
    expect(await code({ path: 'src' })).toBe('WORKSPACE_FILE_UNREADABLE');
    expect(await code({ path: 1 })).toBe('TOOL_INPUT_INVALID');
    expect(await code({ path: 'a', extra: true })).toBe('TOOL_INPUT_INVALID');
    const binary = await w.runtime.callTool('workspace_read', { path: 'bin/blob.bin' });
    expect(binary.isError).toBe(false);
    expect(binary.text).toMatch(/binary file/);
    const failed = w.records().filter((record) => record.event === 'tool-call' && record.error);
    expect(failed.length).toBeGreaterThanOrEqual(8);
  });

  it('cleans control characters out of what the model reads', async () => {
    const w = hostWorld();
    const result = await w.runtime.callTool('workspace_read', { path: 'terminal.txt' });
    expect(result.text).not.toContain('\u001b');
    expect(result.text).not.toContain('\u0007');
    expect(result.text).toMatch(/control or hidden characters were removed/);
  });

  it('lists, globs and greps, leaving the secrets out', async () => {
    const w = hostWorld();
    const listing = await w.runtime.callTool('workspace_list', {});
    expect(listing.text).toContain('src/');
    expect(listing.text).toContain('README.md (');
    expect(listing.text).not.toContain('.env');
    expect(listing.text).toMatch(/1 entry is hidden/);
    const glob = await w.runtime.callTool('workspace_glob', { pattern: '**/*.py' });
    expect(glob.text.split('\n')).toEqual(['src/main.py', 'src/util.py']);
    const top = await w.runtime.callTool('workspace_glob', { pattern: '*.md' });
    expect(top.text).toBe('README.md');
    const grep = await w.runtime.callTool('workspace_grep', { pattern: 'TODO' });
    expect(grep.text).toContain('docs/guide.md:1: TODO: write the guide');
    expect(grep.text).toContain('src/util.py:2:');
    const filtered = await w.runtime.callTool('workspace_grep', {
      pattern: 'todo',
      glob: '*.py',
      ignore_case: true,
    });
    expect(filtered.text.split('\n')).toEqual([
      'src/util.py:2: return 42  # TODO: tidy',
      '[1 file that commonly holds secrets was not searched]',
    ]);
    const secret = await w.runtime.callTool('workspace_grep', { pattern: 'PROJECT-ENV-SECRET' });
    expect(secret.text).toContain('No matches.');
    const regex = await w.runtime.callTool('workspace_grep', {
      pattern: 'def \\w+\\(',
      regex: true,
      path: 'src',
    });
    expect(regex.text.split('\n')).toHaveLength(2);
    const catastrophic = await w.runtime.callTool('workspace_grep', {
      pattern: '(a+)+$',
      regex: true,
    });
    expect(catastrophic.code).toBe('TOOL_INPUT_INVALID');
  });

  it('bind host deny rules, and the host can ask for reads too', async () => {
    const denied = hostWorld({
      options: {
        workspaceTools: true,
        policy: { tools: [...CANONICAL_TOOLS], deny: ['Read(docs/**)'] },
      },
    });
    expect((await denied.runtime.callTool('workspace_read', { path: 'docs/guide.md' })).code).toBe(
      'PERMISSION_DENIED',
    );
    expect((await denied.runtime.callTool('workspace_read', { path: 'README.md' })).isError).toBe(
      false,
    );
    const asking = hostWorld({
      answers: ['no'],
      options: {
        workspaceTools: true,
        policy: { tools: [...CANONICAL_TOOLS], defaults: { read: 'ask' } },
      },
    });
    expect((await asking.runtime.callTool('workspace_read', { path: 'README.md' })).code).toBe(
      'PERMISSION_DENIED',
    );
    expect(asking.questions[0]).toMatchObject({
      kind: 'tool',
      tool: 'workspace_read',
      canonical: 'read',
    });
  });
});

describe('writing and editing the workspace', () => {
  it('asks before writing: yes writes, no refuses, nobody to ask refuses', async () => {
    const w = hostWorld({ writable: true, answers: ['yes', 'no'] });
    const yes = await w.runtime.callTool('workspace_write', {
      path: 'notes/todo.md',
      content: '- one\n',
    });
    expect(yes.isError).toBe(false);
    expect(readFileSync(join(w.project, 'notes/todo.md'), 'utf8')).toBe('- one\n');
    expect(w.questions[0]).toMatchObject({
      kind: 'tool',
      tool: 'workspace_write',
      canonical: 'write',
      input: { path: 'notes/todo.md', content: '- one\n' },
      summary: 'write 6 B to notes/todo.md',
    });
    const no = await w.runtime.callTool('workspace_write', { path: 'README.md', content: 'gone' });
    expect(no.code).toBe('PERMISSION_DENIED');
    expect(readFileSync(join(w.project, 'README.md'), 'utf8')).toContain('A demo project.');
    const events = w.records().map((record) => record.event);
    expect(events).toContain('permission-approve');
    const nobody = hostWorld({ writable: true });
    const required = await nobody.runtime.callTool('workspace_write', {
      path: 'x.txt',
      content: 'x',
    });
    expect(required.code).toBe('PERMISSION_REQUIRED');
  });

  it('a trusted active skill pre-approves within its grant; an untrusted one never does', async () => {
    const trusted = hostWorld({ writable: true, allowedTools: 'Write(docs/**)' });
    trusted.runtime.activate('tool', { triggeredBy: 'user' });
    expect(
      (await trusted.runtime.callTool('workspace_write', { path: 'docs/a.md', content: 'a' }))
        .isError,
    ).toBe(false);
    expect(
      (await trusted.runtime.callTool('workspace_write', { path: 'src/a.py', content: 'a' })).code,
    ).toBe('PERMISSION_REQUIRED');
    const untrusted = hostWorld({
      writable: true,
      allowedTools: 'Write(docs/**)',
      trust: 'untrusted',
      answers: ['no'],
    });
    await untrusted.runtime.requestActivation('tool', { triggeredBy: 'user' });
    const asked = await untrusted.runtime.callTool('workspace_write', {
      path: 'docs/b.md',
      content: 'b',
    });
    expect(asked.code).toBe('PERMISSION_DENIED');
    expect(untrusted.questions.map((question) => question.kind)).toContain('tool');
  });

  it('edits one exact occurrence, and says why it would not', async () => {
    const answers: ApprovalAnswer[] = ['yes', 'yes', 'yes', 'yes'];
    const w = hostWorld({ writable: true, answers });
    const edit = (input: Record<string, unknown>) =>
      w.runtime.callTool('workspace_edit', { path: 'src/util.py', ...input });
    expect((await edit({ old_text: 'return 43', new_text: 'x' })).code).toBe(
      'WORKSPACE_EDIT_MISMATCH',
    );
    const done = await edit({ old_text: 'return 42', new_text: 'return "$&"' });
    expect(done.text).toMatch(/1 replacement/);
    expect(readFileSync(join(w.project, 'src/util.py'), 'utf8')).toContain('return "$&"');
    writeFileSync(join(w.project, 'src/twice.py'), 'a\na\n');
    const twice = await w.runtime.callTool('workspace_edit', {
      path: 'src/twice.py',
      old_text: 'a',
      new_text: 'b',
    });
    expect(twice.code).toBe('WORKSPACE_EDIT_MISMATCH');
    const all = await w.runtime.callTool('workspace_edit', {
      path: 'src/twice.py',
      old_text: 'a',
      new_text: 'b',
      replace_all: true,
    });
    expect(all.isError).toBe(false);
    expect(readFileSync(join(w.project, 'src/twice.py'), 'utf8')).toBe('b\nb\n');
    const protectedPath = await w.runtime.callTool('workspace_write', {
      path: '.git/hooks/post-checkout',
      content: 'x',
    });
    expect(protectedPath.code).toBe('WORKSPACE_WRITE_REFUSED');
  });
});

describe('the bash tool', () => {
  it('runs a command with the workspace once approved; host deny rules bind every command of a line', async () => {
    const w = hostWorld({
      answers: ['yes'],
      options: {
        workspaceTools: true,
        policy: { tools: [...CANONICAL_TOOLS], deny: ['Bash(curl:*)'] },
      },
    });
    const result = await w.runtime.callTool('workspace_bash', { command: 'echo hello' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('hello');
    expect(result.text).toContain('[exit code 0; sandbox: bubblewrap]');
    expect(w.scripted?.commands[0]).toMatchObject({
      command: 'echo hello',
      workspace: { path: w.project, writable: false },
    });
    const denied = await w.runtime.callTool('workspace_bash', {
      command: 'echo ok; curl http://x',
    });
    expect(denied.code).toBe('PERMISSION_DENIED');
    expect(w.scripted?.commands).toHaveLength(1);
  });

  it("a trusted skill's Bash grant pre-approves the commands it covers", async () => {
    const w = hostWorld({ allowedTools: 'Bash(echo:*)' });
    w.runtime.activate('tool', { triggeredBy: 'user' });
    expect((await w.runtime.callTool('workspace_bash', { command: 'echo covered' })).isError).toBe(
      false,
    );
    expect((await w.runtime.callTool('workspace_bash', { command: 'echo a && exit 3' })).code).toBe(
      'PERMISSION_REQUIRED',
    );
  });

  it('is refused before anyone is asked where no sandbox can run it', async () => {
    const { createScriptedRunner } = await import('../../src/testing/index.js');
    const w = hostWorld({
      answers: ['yes'],
      runner: createScriptedRunner(() => ({}), { unavailable: 'no bubblewrap' }),
    });
    const result = await w.runtime.callTool('workspace_bash', { command: 'echo hi' });
    expect(result.code).toBe('SANDBOX_UNAVAILABLE');
    expect(w.questions).toHaveLength(0);
  });
});

describe('the pure parts', () => {
  it('paths: relative, or absolute inside the workspace; never .. or ~', () => {
    expect(workspacePath('./src//a.ts', ['/w'])).toBe('src/a.ts');
    expect(workspacePath('/w/src/a.ts', ['/w'])).toBe('src/a.ts');
    expect(workspacePath('/w', ['/w'])).toBe('');
    expect(() => workspacePath('/wx/a', ['/w'])).toThrow(/outside the workspace/);
    expect(() => workspacePath('a/../b', ['/w'])).toThrow(/\.\. segments/);
    expect(() => workspacePath('a\u0000b', ['/w'])).toThrow(/control/);
  });

  it('globs and line matchers', () => {
    expect(compileGlob('**/*.ts').test('a.ts')).toBe(true);
    expect(compileGlob('**/*.ts').test('a/b/c.ts')).toBe(true);
    expect(compileGlob('*.ts').test('a/b.ts')).toBe(false);
    expect(compileGlob('src/*.{js,mjs}').test('src/x.mjs')).toBe(true);
    expect(compileGlob('[!a]*.md').test('b.md')).toBe(true);
    expect(compileGlob('[!a]*.md').test('a.md')).toBe(false);
    expect(lineMatcher('ToDo', { regex: false, ignoreCase: true })('a TODO')).toBe(true);
    expect(() => lineMatcher('(x*y)*z', { regex: true, ignoreCase: false })).toThrow(
      /nests quantifiers/,
    );
    expect(() => lineMatcher('(', { regex: true, ignoreCase: false })).toThrow(
      /not a regular expression/,
    );
  });

  it("an agent's tools narrow the host's, keep the skill mechanics, and name what they cannot read", () => {
    const host = [...CANONICAL_TOOLS];
    const narrowed = agentTools(host, ['/dev/fs/read', '/dev/shell', 'Bash(git:*)', 'Teleport']);
    expect(narrowed.tools).toEqual([
      'read',
      'glob',
      'grep',
      'bash',
      'activate_skill',
      'read_skill_resource',
      'search_skills',
    ]);
    expect(narrowed.unknown).toEqual(['Bash(git:*)', 'Teleport']);
    expect(agentTools(['read'], ['/dev/fs']).tools).toEqual(['read']);
    expect(agentTools(host, undefined).tools).toEqual(host);
  });
});
