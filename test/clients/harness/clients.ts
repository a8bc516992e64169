import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedToolCall, ScriptedTurn } from '../../helpers/model-servers.js';
import { baseEnv, type Launch, type LaunchContext, type McpTool, type RunOptions } from './run.js';

/**
 * How each real client is set up and started for a run: the settings files it reads, the
 * command line and the environment, all written into the run's scratch home. Every setting here
 * is one the client documents; none turns its approvals off (no --dangerously-skip-permissions,
 * no bypass or yolo mode): each tool a test lets the client call without asking is named, in the
 * client's own way, and the tests check that without it the client refuses.
 */

/** The server's name in every client's settings: it shows in the tools' names. */
export const SERVER_NAME = 'skills';

export interface ModelClientOptions {
  /** The tools the client may call without asking: its own pre-approval setting, per tool. */
  readonly allow?: readonly McpTool[];
  readonly prompt?: string;
  readonly transport?: 'stdio' | 'http';
}

const PROMPT = 'Tidy my meeting notes in notes.txt.';

/** A tool call of the script: the client's name for the tool, its input. */
export interface Call {
  readonly tool: McpTool;
  readonly input: Readonly<Record<string, unknown>>;
}

/** The calls the conversations make, with the fixture skills of skills.ts. */
export const ACTIVATE: Call = { tool: 'skillhost_activate', input: { name: 'tidy-notes' } };
export const READ: Call = {
  tool: 'skillhost_read',
  input: { name: 'tidy-notes', path: 'references/style.md' },
};
export const RUN: Call = {
  tool: 'skillhost_run',
  input: { name: 'tidy-notes', script: 'scripts/count.sh', args: ['notes.txt'] },
};
export const SEARCH: Call = { tool: 'skillhost_search', input: { query: 'tidy up meeting notes' } };

function toml(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toml).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{ ${Object.entries(value)
      .map(([key, entry]) => `${JSON.stringify(key)} = ${toml(entry)}`)
      .join(', ')} }`;
  return String(value);
}

// ---------------------------------------------------------------------------------------------
// Claude Code

/** Claude Code's name for one of our tools. */
export function claudeToolName(tool: McpTool): string {
  return `mcp__${SERVER_NAME}__${tool}`;
}

/**
 * Claude Code offers MCP tools deferred (by name only, in its ToolSearch tool's listing), as it
 * does by default: the model first loads their schemas with ToolSearch, then calls them, one
 * call a turn, then answers. Tool use ids: `toolu_search`, then `toolu_1`, `toolu_2`, …
 */
export function claudeTurns(calls: readonly Call[], answer = 'Done.'): ScriptedTurn[] {
  const tools = [...new Set(calls.map((call) => claudeToolName(call.tool)))];
  return [
    {
      toolCalls: [
        { id: 'toolu_search', name: 'ToolSearch', input: { query: `select:${tools.join(',')}` } },
      ],
    },
    ...calls.map(
      (call, index): ScriptedTurn => ({
        toolCalls: [
          { id: `toolu_${index + 1}`, name: claudeToolName(call.tool), input: call.input },
        ],
      }),
    ),
    { text: answer },
  ];
}

/** What Claude Code needs to stay off the network beyond its API (STACK.md). */
export const CLAUDE_OFFLINE = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_ERROR_REPORTING: '1',
} as const;

/**
 * `claude -p PROMPT --mcp-config FILE --strict-mcp-config --output-format json
 * [--allowedTools mcp__skills__TOOL,…]` against the fake Messages API.
 */
export function claudeCode(
  options: ModelClientOptions = {},
): Pick<RunOptions, 'launch' | 'transport'> {
  return {
    transport: options.transport ?? 'stdio',
    launch: ({ clients, scratch, modelUrl, server }: LaunchContext): Launch => {
      const config = join(scratch.home, 'mcp.json');
      const entry =
        server.transport === 'stdio'
          ? { type: 'stdio', command: server.command, args: server.args, env: server.env }
          : { type: 'http', url: server.url };
      writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2));
      const allowed = (options.allow ?? []).map(claudeToolName);
      return {
        command: clients.claude,
        args: [
          '-p',
          options.prompt ?? PROMPT,
          '--mcp-config',
          config,
          '--strict-mcp-config',
          '--output-format',
          'json',
          ...(allowed.length > 0 ? ['--allowedTools', allowed.join(',')] : []),
        ],
        env: {
          ...baseEnv(scratch),
          ANTHROPIC_BASE_URL: modelUrl,
          ANTHROPIC_API_KEY: 'sk-ant-fake',
          ...CLAUDE_OFFLINE,
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Codex

/** Codex offers each MCP server's tools as one namespace of the Responses API. */
export const CODEX_NAMESPACE = `mcp__${SERVER_NAME}`;

/** The model calls each tool in turn (`call_1`, `call_2`, …), then answers. */
export function codexTurns(calls: readonly Call[], answer = 'Done.'): ScriptedTurn[] {
  return [
    ...calls.map(
      (call, index): ScriptedTurn => ({
        toolCalls: [
          {
            id: `call_${index + 1}`,
            namespace: CODEX_NAMESPACE,
            name: call.tool,
            input: call.input,
          } satisfies ScriptedToolCall,
        ],
      }),
    ),
    { text: answer },
  ];
}

/**
 * `codex exec --skip-git-repo-check --json PROMPT` with a CODEX_HOME whose config.toml points a
 * `model_providers` entry at the fake Responses API (Codex 0.171 speaks only the Responses API to
 * custom providers: `wire_api = "chat"` is refused), turns plugins off, and declares the server;
 * each allowed tool gets `approval_mode = "approve"` (Codex's per-tool approval; its
 * `approval_policy` stays at exec's default, `never`, which refuses anything needing approval).
 */
export function codex(options: ModelClientOptions = {}): Pick<RunOptions, 'launch' | 'transport'> {
  return {
    transport: options.transport ?? 'stdio',
    launch: ({ clients, scratch, modelUrl, server }: LaunchContext): Launch => {
      const codexHome = join(scratch.home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      const lines = [
        'model = "gpt-5"',
        'model_provider = "fake"',
        '',
        '[model_providers.fake]',
        'name = "fake model API"',
        `base_url = ${toml(`${modelUrl}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "FAKE_MODEL_API_KEY"',
        '',
        '[features]',
        'plugins = false',
        '',
        '[analytics]',
        'enabled = false',
        '',
        `[mcp_servers.${SERVER_NAME}]`,
        ...(server.transport === 'stdio'
          ? [
              `command = ${toml(server.command)}`,
              `args = ${toml(server.args)}`,
              `env = ${toml(server.env)}`,
            ]
          : [`url = ${toml(server.url)}`]),
        // The clients run under strace, which slows every process it follows (the server too)
        // several times over on a loaded machine: Codex's default of 10 s to start a server
        // is then too short, and it would answer without our tools.
        'startup_timeout_sec = 60',
        ...(options.allow ?? []).flatMap((tool) => [
          '',
          `[mcp_servers.${SERVER_NAME}.tools.${tool}]`,
          'approval_mode = "approve"',
        ]),
        '',
      ];
      writeFileSync(join(codexHome, 'config.toml'), lines.join('\n'));
      return {
        command: clients.node,
        args: [clients.codex, 'exec', '--skip-git-repo-check', '--json', options.prompt ?? PROMPT],
        env: { ...baseEnv(scratch), CODEX_HOME: codexHome, FAKE_MODEL_API_KEY: 'sk-fake' },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Gemini CLI

/** Gemini CLI's name for one of our tools (its fully qualified MCP name). */
export function geminiToolName(tool: McpTool): string {
  return `mcp_${SERVER_NAME}_${tool}`;
}

/** The model calls each tool in turn, then answers. */
export function geminiTurns(calls: readonly Call[], answer = 'Done.'): ScriptedTurn[] {
  return [
    ...calls.map(
      (call, index): ScriptedTurn => ({
        toolCalls: [
          { id: `call_${index + 1}`, name: geminiToolName(call.tool), input: call.input },
        ],
      }),
    ),
    { text: answer },
  ];
}

/**
 * `gemini -m gemini-2.5-pro -p PROMPT --output-format json` with a settings.json that declares
 * the server, selects API-key auth and turns usage statistics off, against the fake
 * `generateContent` (`GOOGLE_GEMINI_BASE_URL`, `GEMINI_API_KEY`); the folder is trusted with
 * `GEMINI_CLI_TRUST_WORKSPACE=true` (its documented switch for headless runs; stdio servers start
 * only in trusted folders). Allowed tools get a user policy rule (`~/.gemini/policies/`,
 * `mcpName` + `toolName`, decision `allow`): headless runs deny whatever would ask.
 */
export function geminiCli(
  options: ModelClientOptions = {},
): Pick<RunOptions, 'launch' | 'transport'> {
  return {
    transport: options.transport ?? 'stdio',
    launch: ({ clients, scratch, modelUrl, server }: LaunchContext): Launch => {
      const gemini = join(scratch.home, '.gemini');
      mkdirSync(join(gemini, 'policies'), { recursive: true });
      const entry =
        server.transport === 'stdio'
          ? { command: server.command, args: server.args, env: server.env }
          : { httpUrl: server.url };
      writeFileSync(
        join(gemini, 'settings.json'),
        JSON.stringify(
          {
            privacy: { usageStatisticsEnabled: false },
            security: { auth: { selectedType: 'gemini-api-key' } },
            mcpServers: { [SERVER_NAME]: entry },
          },
          null,
          2,
        ),
      );
      const allowed = options.allow ?? [];
      if (allowed.length > 0)
        writeFileSync(
          join(gemini, 'policies', 'skills.toml'),
          [
            '[[rule]]',
            `mcpName = ${toml(SERVER_NAME)}`,
            `toolName = ${toml(allowed)}`,
            'decision = "allow"',
            'priority = 500',
            '',
          ].join('\n'),
        );
      return {
        command: clients.node,
        args: [
          clients.gemini,
          '-m',
          'gemini-2.5-pro',
          '-p',
          options.prompt ?? PROMPT,
          '--output-format',
          'json',
        ],
        env: {
          ...baseEnv(scratch),
          GOOGLE_GEMINI_BASE_URL: modelUrl,
          GEMINI_API_KEY: 'dummy',
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The Inspector CLI

/**
 * `inspector --cli TARGET… ARGS…`: the server's command line (`-e` for its environment) over
 * stdio, or its URL over HTTP. The Inspector calls no model.
 */
export function inspector(
  args: readonly string[],
  transport: 'stdio' | 'http' = 'stdio',
): Pick<RunOptions, 'launch' | 'transport'> {
  return {
    transport,
    launch: ({ clients, scratch, server }: LaunchContext): Launch => ({
      command: clients.node,
      args: [
        clients.inspector,
        '--cli',
        ...(server.transport === 'stdio'
          ? [
              ...Object.entries(server.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
              server.command,
              ...server.args,
            ]
          : [server.url]),
        ...args,
      ],
      env: baseEnv(scratch),
    }),
  };
}
