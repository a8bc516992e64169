import { describe, expect, it } from 'vitest';
import { MemoryAuditSink } from '../../src/audit/trail.js';
import { nodeRuntimeDeps } from '../../src/node/runtime-deps.js';
import { CANONICAL_TOOLS } from '../../src/policy/tools.js';
import { createSkillRuntime } from '../../src/runtime/create.js';
import { shellRunner } from '../helpers/shell.js';
import { skillText, tempDir, writeTree } from '../helpers/temp.js';

function runtimeWith(
  files: Record<string, string | Uint8Array>,
  options: {
    tools?: string[];
    scope?: string[];
    budget?: number;
    scripts?: { allowUnsandboxed?: boolean; workspace?: { path: string; writable: boolean } };
  } = {},
) {
  const root = tempDir('skillhost-skills-');
  writeTree(root, files);
  const sink = new MemoryAuditSink();
  const runtime = createSkillRuntime({
    sources: [{ id: 'test', kind: 'explicit', root, trust: 'trusted', enabled: true }],
    policy: { tools: options.tools ?? [...CANONICAL_TOOLS] },
    audit: { sink, sessionId: 'tools' },
    deps: nodeRuntimeDeps({ runner: shellRunner() }),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
    ...(options.budget === undefined ? {} : { catalog: { budget: options.budget } }),
    ...(options.scripts === undefined ? {} : { scripts: options.scripts }),
  });
  return { runtime, sink, root };
}

const SKILLS = {
  'pdf/SKILL.md': skillText(
    'name: pdf\ndescription: Extract text and tables from PDF files. Use for PDF documents.\nallowed-tools: Bash(sh scripts/count.sh:*)',
    '# PDF\n\nRead references/guide.md.\n',
  ),
  'pdf/references/guide.md': '# Guide\n\nUse pdftotext.\n',
  'pdf/assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
  'pdf/scripts/count.sh': '#!/bin/sh\necho "$# arguments: $*"\n',
  'csv/SKILL.md': skillText(
    'name: csv\ndescription: Summarise CSV spreadsheets. Use for CSV data.',
  ),
};

describe('the runtime facade: tools() and callTool()', () => {
  it('offers no tools without a usable skill', () => {
    const { runtime } = runtimeWith({ 'broken/SKILL.md': 'no frontmatter' });
    expect(runtime.tools()).toEqual([]);
  });

  it('defines the four tools as JSON Schema, skillhost_activate with the catalog names as an enum', () => {
    const { runtime } = runtimeWith(SKILLS);
    const tools = runtime.tools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'skillhost_activate',
      'skillhost_read',
      'skillhost_run',
      'skillhost_search',
    ]);
    const activate = tools[0];
    expect(activate?.inputSchema).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', enum: ['csv', 'pdf'] } },
    });
    // JSON-serialisable, as every adapter sends it.
    expect(JSON.parse(JSON.stringify(tools))).toEqual(tools);
  });

  it('annotates each tool truthfully: only a script run changes anything', () => {
    const hints = (runtime: ReturnType<typeof runtimeWith>['runtime']) =>
      Object.fromEntries(runtime.tools().map((tool) => [tool.name, tool.annotations]));
    const readOnly = {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    };
    const sandboxed = hints(runtimeWith(SKILLS).runtime);
    expect(sandboxed).toEqual({
      skillhost_activate: readOnly,
      skillhost_read: readOnly,
      skillhost_search: readOnly,
      skillhost_run: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    });
    const writable = hints(
      runtimeWith(SKILLS, { scripts: { workspace: { path: tempDir('ws-'), writable: true } } })
        .runtime,
    );
    expect(writable.skillhost_run).toMatchObject({
      destructiveHint: true,
      openWorldHint: false,
    });
    const unsandboxed = hints(runtimeWith(SKILLS, { scripts: { allowUnsandboxed: true } }).runtime);
    expect(unsandboxed.skillhost_run).toMatchObject({
      destructiveHint: true,
      openWorldHint: true,
    });
    for (const tool of runtimeWith(SKILLS).runtime.tools())
      expect(tool.title).toMatch(/\(skillhost\)$/);
  });

  it('tells the model why a skill it names cannot be used, or which names it may have meant', async () => {
    const { runtime } = runtimeWith({
      ...SKILLS,
      'broken/SKILL.md': skillText('name: broken\ndescription: > Use when it breaks'),
    });
    const unavailable = await runtime.callTool('skillhost_activate', { name: 'broken' });
    expect(unavailable.isError).toBe(true);
    expect(unavailable.code).toBe('SKILL_UNAVAILABLE');
    expect(unavailable.text).toContain('YAML_BLOCK_SCALAR_TEXT');
    const read = await runtime.callTool('skillhost_read', { name: 'broken', path: 'SKILL.md' });
    expect(read.code).toBe('SKILL_UNAVAILABLE');
    const typo = await runtime.callTool('skillhost_activate', { name: 'pdff' });
    expect(typo.code).toBe('SKILL_NOT_FOUND');
    expect(typo.text).toContain("Did you mean 'pdf'?");
    expect(() => runtime.activate('broken', { triggeredBy: 'user' })).toThrow(
      expect.objectContaining({ code: 'SKILL_UNAVAILABLE' }),
    );
    const missingFile = await runtime.callTool('skillhost_read', {
      name: 'pdf',
      path: 'references/GUIDE.md',
    });
    expect(missingFile.code).toBe('RESOURCE_NOT_FOUND');
    expect(missingFile.text).toContain("Did you mean 'references/guide.md'?");
  });

  it('still answers the former tool names (deprecated) but never offers them', async () => {
    const { runtime } = runtimeWith(SKILLS);
    expect(runtime.tools().map((tool) => [tool.name, tool.deprecatedNames])).toEqual([
      ['skillhost_activate', ['activate_skill']],
      ['skillhost_read', ['read_skill_resource']],
      ['skillhost_run', ['run_skill_script']],
      ['skillhost_search', ['search_skills']],
    ]);
    const activated = await runtime.callTool('activate_skill', { name: 'pdf' });
    expect(activated.isError).toBe(false);
    expect(activated.text).toContain('Read references/guide.md.');
    const read = await runtime.callTool('read_skill_resource', {
      name: 'pdf',
      path: 'references/guide.md',
    });
    expect(read.text).toContain('Use pdftotext.');
    const unknown = await runtime.callTool('skill_activate', { name: 'pdf' });
    expect(unknown.code).toBe('TOOL_UNKNOWN');
    for (const tool of runtime.tools())
      expect(tool.description).toMatch(/^Agent Skills, served by skillhost/);
  });

  it('never offers a tool the host lacks, and narrows to the scope', () => {
    const { runtime } = runtimeWith(SKILLS, {
      tools: ['activate_skill', 'search_skills'],
      scope: ['pdf'],
    });
    expect(runtime.tools().map((tool) => tool.name)).toEqual([
      'skillhost_activate',
      'skillhost_search',
    ]);
    expect(runtime.tools()[0]?.inputSchema.properties.name).toMatchObject({ enum: ['pdf'] });
  });

  it('drops the enum and points to skillhost_search when the budget hides skills', () => {
    const { runtime } = runtimeWith(SKILLS, { budget: 1 });
    const activate = runtime.tools()[0];
    expect(activate?.inputSchema.properties.name).not.toHaveProperty('enum');
    expect(activate?.description).toContain('skillhost_search');
  });

  it('activates, reads, runs and searches through callTool', async () => {
    const { runtime, sink } = runtimeWith(SKILLS);
    const activated = await runtime.callTool('skillhost_activate', { name: 'pdf' });
    expect(activated.isError).toBe(false);
    expect(activated.text).toContain('Read references/guide.md.');
    expect(activated.data?.files).toContain('references/guide.md');
    const again = await runtime.callTool('skillhost_activate', { name: 'pdf' });
    expect(again.text).toContain('already active');
    const guide = await runtime.callTool('skillhost_read', {
      name: 'pdf',
      path: 'references/guide.md',
    });
    expect(guide.text).toBe('# Guide\n\nUse pdftotext.\n');
    const logo = await runtime.callTool('skillhost_read', {
      name: 'pdf',
      path: 'assets/logo.png',
    });
    expect(logo.data).toMatchObject({ mediaType: 'image/png', base64: expect.any(String) });
    const run = await runtime.callTool('skillhost_run', {
      name: 'pdf',
      script: 'scripts/count.sh',
      args: ['a b', 'c'],
    });
    expect(run.isError).toBe(false);
    expect(run.text).toContain('2 arguments: a b c');
    expect(run.data).toMatchObject({ exitCode: 0, sandbox: 'bubblewrap', approvedBy: 'policy' });
    const found = await runtime.callTool('skillhost_search', { query: 'tables in a PDF document' });
    expect(found.text.split('\n')[0]).toMatch(/^pdf \(/);
    expect(sink.text).toContain('"event":"script-run"');
  });

  it('turns bad calls into coded error results, never exceptions', async () => {
    const { runtime } = runtimeWith(SKILLS, { scope: ['pdf'] });
    const cases: Array<[string, unknown, string]> = [
      ['delete_everything', {}, 'TOOL_UNKNOWN'],
      ['skillhost_activate', 'pdf', 'TOOL_INPUT_INVALID'],
      ['skillhost_activate', [], 'TOOL_INPUT_INVALID'],
      ['skillhost_activate', {}, 'TOOL_INPUT_INVALID'],
      ['skillhost_activate', { name: 42 }, 'TOOL_INPUT_INVALID'],
      ['skillhost_activate', { name: 'pdf', extra: 1 }, 'TOOL_INPUT_INVALID'],
      ['skillhost_activate', { name: 'x'.repeat(100_000) }, 'TOOL_INPUT_INVALID'],
      ['skillhost_activate', { name: 'csv' }, 'SKILL_NOT_FOUND'],
      ['skillhost_activate', { name: '../../etc' }, 'SKILL_NOT_FOUND'],
      ['skillhost_read', { name: 'pdf', path: '../../../etc/passwd' }, 'RESOURCE_PATH_INVALID'],
      [
        'skillhost_run',
        { name: 'pdf', script: 'scripts/count.sh', args: 'a' },
        'TOOL_INPUT_INVALID',
      ],
      [
        'skillhost_run',
        { name: 'pdf', script: 'scripts/count.sh', args: Array(65).fill('a') },
        'TOOL_INPUT_INVALID',
      ],
      ['skillhost_run', { name: 'pdf', script: 'scripts/count.sh' }, 'SKILL_NOT_ACTIVE'],
      ['skillhost_search', { query: 'x', limit: 0 }, 'TOOL_INPUT_INVALID'],
    ];
    for (const [tool, input, code] of cases) {
      const result = await runtime.callTool(tool, input);
      expect(result.isError, `${tool} ${JSON.stringify(input).slice(0, 60)}`).toBe(true);
      expect(result.code, `${tool} ${JSON.stringify(input).slice(0, 60)}`).toBe(code);
      expect(result.text.length).toBeLessThan(600);
    }
  });
});
