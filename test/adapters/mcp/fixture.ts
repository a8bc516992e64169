import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { ToolDefinition } from '../../../src/runtime/tools.js';
import type { SkillRuntime } from '../../../src/runtime/types.js';
import { skillText, writeTree } from '../../helpers/temp.js';

/**
 * Temporary folders that live for a whole describe block (the shared helper removes its own
 * after each test, and one server serves every test of a block): removed by `removeAll`.
 */
export class Scratch {
  readonly #made: string[] = [];

  folder(prefix: string): string {
    const path = mkdtempSync(join(tmpdir(), prefix));
    this.#made.push(path);
    return path;
  }

  removeAll(): void {
    for (const path of this.#made.splice(0)) rmSync(path, { recursive: true, force: true });
  }
}

/** Bytes of a tiny PNG-like binary file (a NUL byte makes it binary). */
export const LOGO = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

/** A secret next to the skills folder: no URI or tool call may ever show it. */
export const OUTSIDE_SECRET = 'OUTSIDE-THE-SKILLS-SECRET';

export interface SkillTree {
  /** The folder holding the skill folders. */
  readonly skills: string;
  /** The folder above it (holds the secret). */
  readonly root: string;
}

/**
 * Three skills: `hello` (its script pre-approved by allowed-tools, a reference, a binary
 * asset), `guarded` (a script nothing pre-approves) and `notes`; a secret outside them all.
 */
export function skillTree(scratch: Scratch): SkillTree {
  const root = scratch.folder('skillhost-mcp-');
  const skills = join(root, 'skills');
  writeTree(root, { 'secret.txt': `${OUTSIDE_SECRET}\n` });
  writeTree(skills, {
    'hello/SKILL.md': skillText(
      'name: hello\ndescription: Greets people by name. Use when asked to say hello.\nallowed-tools: Bash(sh scripts/greet.sh:*)',
      '# Hello\n\nRun scripts/greet.sh with the name.\n',
    ),
    'hello/scripts/greet.sh': 'echo "hello $1"\n',
    'hello/references/guide.md': '# Guide\n\nBe kind.\n',
    'hello/assets/logo.png': LOGO,
    'guarded/SKILL.md': skillText(
      'name: guarded\ndescription: Counts files in a folder. Use when counting.',
    ),
    'guarded/scripts/count.sh': 'echo 3\n',
    'notes/SKILL.md': skillText(
      'name: notes\ndescription: Keeps meeting notes tidy. Use for minutes.\nlicense: MIT',
    ),
  });
  return { root, skills };
}

/** Adds a skill folder to the tree (the watch should notice it). */
export function addSkill(tree: SkillTree, name: string): void {
  writeTree(tree.skills, {
    [`${name}/SKILL.md`]: skillText(`name: ${name}\ndescription: Added later. Use for ${name}.`),
  });
}

/** The one text content of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe('text');
  return content[0]?.text ?? '';
}

/**
 * The runtime's metadata of a tool result (`_meta["skillhost/result"]`). There is no structured
 * content: clients would send the model its JSON instead of the text.
 */
// biome-ignore lint/suspicious/noExplicitAny: dug into by the tests.
export function metaOf(result: unknown): any {
  const { structuredContent, _meta } = result as {
    structuredContent?: unknown;
    _meta?: Record<string, unknown>;
  };
  expect(structuredContent).toBeUndefined();
  return _meta?.['skillhost/result'];
}

/**
 * A runtime tool definition as MCP lists it: the title also among the annotations, and
 * `skillhost_activate`'s description followed by the catalog (Markdown, within its budget), for
 * clients that show the model tool descriptions but not the server's instructions.
 */
export function mcpToolsOf(runtime: SkillRuntime): Record<string, unknown>[] {
  const catalog = runtime.catalog({
    format: 'markdown',
    budget: 800,
    searchTool: 'skillhost_search',
  }).text;
  return runtime.tools().map((tool: ToolDefinition) => {
    const { deprecatedNames: _, ...listed } = tool;
    return {
      ...listed,
      description:
        tool.name === 'skillhost_activate' ? `${tool.description}\n\n${catalog}` : tool.description,
      annotations: { title: tool.title, ...tool.annotations },
    };
  });
}

/** The error a promise rejects with (it must reject). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: number };
  }
  throw new Error('expected the request to fail');
}

/** URIs that try to leave a skill, or are not skill file URIs at all. */
export const ESCAPES = [
  'skill://hello/../notes/SKILL.md',
  'skill://hello/../../secret.txt',
  'skill://hello/%2e%2e/%2e%2e/secret.txt',
  'skill://hello/%2E%2E/%2E%2E/secret.txt',
  'skill://hello/references%2f..%2f..%2f..%2fsecret.txt',
  'skill://hello//etc/passwd',
  'skill://hello/./SKILL.md',
  'skill://../secret.txt',
  'skill://hello/references/',
  'skill://hello',
  'file:///etc/passwd',
  'SKILL://hello/SKILL.md',
  'skill://hello/SKILL.md?x=1',
  'skill://hello\\..\\..\\secret.txt',
];

/**
 * The calls every transport must answer with an error result (a code, `isError`), never an
 * exception; after them the server must still answer.
 */
export async function expectBadCallsRefused(client: Client): Promise<void> {
  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const cases: Array<[Promise<unknown>, string]> = [
    [call('no_such_tool', {}), 'TOOL_UNKNOWN'],
    [call('skillhost_activate', { name: 42 }), 'TOOL_INPUT_INVALID'],
    [call('skillhost_activate', {}), 'TOOL_INPUT_INVALID'],
    [call('skillhost_activate', { name: 'hello', extra: true }), 'TOOL_INPUT_INVALID'],
    [call('skillhost_activate', { name: 'x'.repeat(1024 * 1024) }), 'TOOL_INPUT_INVALID'],
    [call('skillhost_activate', { name: 'not-in-the-enum' }), 'SKILL_NOT_FOUND'],
    [call('skillhost_read', { name: 'hello', path: ['a'] }), 'TOOL_INPUT_INVALID'],
    [call('skillhost_read', { name: 'hello', path: '../../secret.txt' }), 'RESOURCE_PATH_INVALID'],
    [call('skillhost_search', { query: 'hello', limit: 'ten' }), 'TOOL_INPUT_INVALID'],
    [
      call('skillhost_run', { name: 'hello', script: 'scripts/greet.sh', args: [1, 2] }),
      'TOOL_INPUT_INVALID',
    ],
  ];
  for (const [pending, code] of cases) {
    const result = (await pending) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(metaOf(result)?.code).toBe(code);
    expect(textOf(result)).toContain(code);
    expect(textOf(result)).not.toContain(OUTSIDE_SECRET);
  }
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('skillhost_activate');
}

/**
 * Resolves when `check` holds, checking after each notification the caller counts; rejects,
 * naming `what`, when it still does not hold after `timeoutMs`.
 */
export function waitFor(
  check: () => boolean,
  register: (wake: () => void) => void,
  what = 'the condition',
  timeoutMs = 20_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`waited ${timeoutMs} ms for ${what}`)),
      timeoutMs,
    );
    const wake = () => {
      if (!check()) return;
      clearTimeout(timer);
      resolve();
    };
    register(wake);
    wake();
  });
}
