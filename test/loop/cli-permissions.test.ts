import { describe, expect, it } from 'vitest';
import { evaluate, type PolicyConfig, type ToolRequest } from '../../src/core.js';
import {
  ApprovalBroker,
  acpToolRequest,
  type CliPermissionRequest,
  claudeBuiltinTools,
  claudePermissionFlags,
  claudeToolRequest,
  policyPermissions,
} from '../../src/internal.js';
import { sha256 } from '../../src/node/hash.js';

const CONTEXT = { server: 'skillhost', cwd: '/work/project' };

function request(
  tool: string,
  call: ToolRequest | undefined,
  signal = new AbortController().signal,
): CliPermissionRequest {
  return {
    id: 'q1',
    provider: 'claude',
    tool,
    request: call,
    input: {},
    toolCallId: 'toolu_1',
    title: tool,
    scopes: ['once'],
    signal,
  };
}

describe("command-line agents' tools in the policy's grammar", () => {
  it("reads Claude Code's built-in tools and ours", () => {
    expect(claudeToolRequest('Bash', { command: 'git status' }, CONTEXT)).toEqual({
      tool: 'bash',
      command: 'git status',
    });
    expect(claudeToolRequest('Read', { file_path: '/work/project/src/a.ts' }, CONTEXT)).toEqual({
      tool: 'read',
      path: 'src/a.ts',
    });
    expect(claudeToolRequest('Edit', { file_path: '/etc/passwd' }, CONTEXT)).toEqual({
      tool: 'edit',
      path: '/etc/passwd',
    });
    expect(claudeToolRequest('Grep', { pattern: 'x' }, CONTEXT)).toEqual({ tool: 'grep' });
    expect(claudeToolRequest('mcp__skillhost__skillhost_run', {}, CONTEXT)).toEqual({
      tool: 'run_skill_script',
    });
    // Another server's tool of the same name, and tools the policy has no name for, map to nothing.
    expect(claudeToolRequest('mcp__other__skillhost_run', {}, CONTEXT)).toBeUndefined();
    expect(claudeToolRequest('Skill', {}, CONTEXT)).toBeUndefined();
    expect(claudeToolRequest('EnterWorktree', {}, CONTEXT)).toBeUndefined();
  });

  it('reads ACP tool calls by kind, and ours only by their exact names', () => {
    expect(
      acpToolRequest({ kind: 'execute', title: 'ls -la', rawInput: { command: 'ls' } }, CONTEXT),
    ).toEqual({ tool: 'bash', command: 'ls' });
    expect(acpToolRequest({ kind: 'execute', title: 'make all' }, CONTEXT)).toEqual({
      tool: 'bash',
      command: 'make all',
    });
    expect(
      acpToolRequest({ kind: 'edit', locations: [{ path: '/work/project/a.md' }] }, CONTEXT),
    ).toEqual({ tool: 'edit', path: 'a.md' });
    expect(acpToolRequest({ kind: 'delete', rawInput: { path: 'x' } }, CONTEXT)).toEqual({
      tool: 'write',
      path: 'x',
    });
    expect(acpToolRequest({ kind: 'fetch' }, CONTEXT)).toEqual({ tool: 'web_fetch' });
    expect(
      acpToolRequest(
        { toolCallId: 'mcp_skillhost_skillhost_activate__call_1', title: 'x', kind: 'other' },
        CONTEXT,
      ),
    ).toEqual({ tool: 'activate_skill' });
    expect(
      acpToolRequest({ title: 'skillhost_read (skillhost MCP Server)', kind: 'other' }, CONTEXT),
    ).toEqual({ tool: 'read_skill_resource' });
    expect(
      acpToolRequest(
        { kind: 'other', rawInput: { providerIdentifier: 'skillhost', toolName: 'skillhost_run' } },
        CONTEXT,
      ),
    ).toEqual({ tool: 'run_skill_script' });
    // A shell command that mentions our tool is still a shell command.
    expect(
      acpToolRequest({ kind: 'execute', title: 'skillhost_run (skillhost MCP Server)' }, CONTEXT),
    ).toEqual({ tool: 'bash', command: 'skillhost_run (skillhost MCP Server)' });
    expect(acpToolRequest({ kind: 'switch_mode', title: 'yolo' }, CONTEXT)).toBeUndefined();
    expect(acpToolRequest({ kind: 'other', title: 'something' }, CONTEXT)).toBeUndefined();
  });

  it("keeps the host's built-in tools, and tells Claude Code only what the policy allows or denies outright", () => {
    expect(claudeBuiltinTools(['read', 'bash', 'activate_skill', 'Edit'])).toEqual([
      'Bash',
      'Edit',
      'MultiEdit',
      'Read',
    ]);
    const config: PolicyConfig = {
      tools: [
        'bash',
        'read',
        'web_fetch',
        'activate_skill',
        'read_skill_resource',
        'run_skill_script',
      ],
      deny: ['Bash(rm:*)', '/dev/net'],
      defaults: { read: 'allow', bash: 'allow' },
    };
    const flags = claudePermissionFlags(config, 'skillhost');
    // bash is allowed by default but has a deny rule: not pre-allowed; run_skill_script asks.
    expect(flags.allowed).toEqual([
      'mcp__skillhost__skillhost_activate',
      'Read',
      'mcp__skillhost__skillhost_read',
    ]);
    expect(flags.disallowed).toEqual(['Bash(rm:*)', 'WebFetch', 'WebSearch']);
    expect(flags.allowed.some((tool) => tool.includes('skillhost_run') || tool === 'Bash')).toBe(
      false,
    );
    // Narrowing or shadow mode: nothing is allowed up front.
    expect(claudePermissionFlags({ ...config, narrow: true }, 'skillhost').allowed).toEqual([]);
  });
});

describe('the permission handler over the policy and the broker', () => {
  const config: PolicyConfig = {
    tools: ['bash', 'read', 'activate_skill', 'run_skill_script'],
    deny: ['Bash(rm:*)'],
    defaults: { read: 'allow' },
  };
  function handler(answer: 'once' | 'denied' | 'hang') {
    const asked: string[] = [];
    const broker = new ApprovalBroker({
      hash: sha256,
      ask: (question) => {
        asked.push(question.summary);
        return answer === 'hang'
          ? new Promise(() => {})
          : Promise.resolve(
              answer === 'once' ? { decision: 'once' } : { decision: 'denied', reason: 'no' },
            );
      },
    });
    const decided: string[] = [];
    const permissions = policyPermissions({
      authorize: (call) => {
        const decision = evaluate(call, { config, active: [] });
        decided.push(`${call.tool}:${decision.decision}`);
        return decision;
      },
      confirm: broker.confirm,
    });
    return { permissions, asked, decided };
  }

  it('allows what the policy allows and denies what it denies, with the rule, asking no one', async () => {
    const { permissions, asked } = handler('once');
    await expect(permissions(request('Read', { tool: 'read', path: 'a.md' }))).resolves.toEqual({
      behavior: 'allow',
      scope: 'once',
    });
    await expect(
      permissions(request('Bash', { tool: 'bash', command: 'rm -rf /' })),
    ).resolves.toMatchObject({ behavior: 'deny', rule: 'deny-rule: Bash(rm:*)' });
    await expect(permissions(request('Skill', undefined))).resolves.toMatchObject({
      behavior: 'deny',
      rule: 'ceiling',
    });
    await expect(permissions(request('WebFetch', { tool: 'web_fetch' }))).resolves.toMatchObject({
      behavior: 'deny',
      rule: 'ceiling',
    });
    expect(asked).toEqual([]);
  });

  it('asks the broker what the policy would ask about: yes allows once, no denies', async () => {
    const yes = handler('once');
    await expect(
      yes.permissions(request('Bash', { tool: 'bash', command: 'make' })),
    ).resolves.toEqual({ behavior: 'allow', scope: 'once' });
    expect(yes.asked).toEqual(['claude: Bash']);
    const no = handler('denied');
    await expect(
      no.permissions(request('Bash', { tool: 'bash', command: 'make' })),
    ).resolves.toEqual({ behavior: 'deny', rule: 'approval', reason: 'The user refused' });
  });

  it("leaves skillhost's own tools to the runtime, which asks with the exact content", async () => {
    const { permissions, asked, decided } = handler('denied');
    await expect(permissions(request('run', { tool: 'run_skill_script' }))).resolves.toEqual({
      behavior: 'allow',
      scope: 'once',
    });
    expect(decided).toEqual(['run_skill_script:ask']);
    expect(asked).toEqual([]);
  });

  it('denies a question the agent withdrew while the broker was asking', async () => {
    const { permissions } = handler('hang');
    const controller = new AbortController();
    const answer = permissions(
      request('Bash', { tool: 'bash', command: 'make' }, controller.signal),
    );
    controller.abort();
    await expect(answer).resolves.toMatchObject({ behavior: 'deny', rule: 'withdrawn' });
  });
});
