import { SkillhostError } from '../core.js';
import type { CliMcpServer } from '../internal.js';

/**
 * Claude Code's command line for one long-lived session, and the MCP settings it reads. What
 * skillhost sets, and why:
 *
 * - `-p` with stream-json in and out and `--verbose`: one process for the whole session, driven
 *   message by message; `--include-partial-messages` streams text as it comes.
 * - `--permission-prompt-tool stdio` and `--permission-mode default`: every permission question
 *   comes to skillhost over the control protocol (`can_use_tool`); never a bypass mode.
 * - `--setting-sources=` (none): the user's and the project's Claude Code settings are not read,
 *   so no permission rule, hook or mode of theirs answers for the policy.
 * - `--mcp-config=FILE --strict-mcp-config`: skillhost's MCP server and no other.
 * - `--append-system-prompt-file=FILE` (or `--system-prompt-file`): the agent's instructions and
 *   catalog from a private file, never on the command line.
 * - `--tools=…`: the built-in tools it keeps (the host's); `--allowedTools`/`--disallowedTools`:
 *   only what the policy allows or denies outright, never a tool it would ask about.
 * - `--model=…` only when one was chosen; `--resume=ID` and `--max-turns=N` as one argument each.
 */

export interface ClaudeArgumentPlan {
  readonly mcpConfigFile: string;
  readonly systemPromptFile: string;
  readonly systemPromptMode: 'append' | 'replace';
  /** The built-in tools it keeps (`Read`, `Bash`, …); empty: none. */
  readonly builtinTools: readonly string[];
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly model?: string;
  readonly resume?: string;
  readonly maxTurns?: number;
}

/** Flags and values that would turn Claude Code's permission questions off. */
const BYPASS = ['--dangerously-skip-permissions', '--allow-dangerously-skip-permissions'];

/** A tool entry in Claude Code's syntax: a name, optionally with a parenthesised rule. */
const TOOL_ENTRY = /^[A-Za-z_][A-Za-z0-9_-]*(?:\([^\n\r]*\))?$/;
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:/@[\]-]{0,199}$/;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function toolList(flag: string, tools: readonly string[]): string {
  for (const tool of tools) {
    if (!TOOL_ENTRY.test(tool) || tool.includes(','))
      throw new SkillhostError(
        'TOOL_INPUT_INVALID',
        `${flag}: ${JSON.stringify(tool)} is not a Claude Code tool entry (a name such as Bash, or Bash(git status))`,
      );
  }
  return `${flag}=${tools.join(',')}`;
}

/** The argv after the program; throws on a model, a session id or a tool entry that could pose as a flag. */
export function claudeArguments(plan: ClaudeArgumentPlan): string[] {
  if (plan.model !== undefined && !MODEL.test(plan.model))
    throw new SkillhostError('MODEL_UNKNOWN', `${JSON.stringify(plan.model)} is not a model name`);
  if (plan.resume !== undefined && !SESSION_ID.test(plan.resume))
    throw new SkillhostError(
      'SESSION_NOT_FOUND',
      `${JSON.stringify(plan.resume)} is not a Claude Code session id`,
    );
  if (plan.maxTurns !== undefined && (!Number.isInteger(plan.maxTurns) || plan.maxTurns < 1))
    throw new SkillhostError('TOOL_INPUT_INVALID', 'the most turns must be a positive integer');
  const argv = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--permission-prompt-tool',
    'stdio',
    '--permission-mode',
    'default',
    '--setting-sources=',
    `--mcp-config=${plan.mcpConfigFile}`,
    '--strict-mcp-config',
    `${plan.systemPromptMode === 'replace' ? '--system-prompt-file' : '--append-system-prompt-file'}=${plan.systemPromptFile}`,
    toolList('--tools', plan.builtinTools),
    ...(plan.allowedTools.length === 0 ? [] : [toolList('--allowedTools', plan.allowedTools)]),
    ...(plan.disallowedTools.length === 0
      ? []
      : [toolList('--disallowedTools', plan.disallowedTools)]),
    ...(plan.model === undefined ? [] : [`--model=${plan.model}`]),
    ...(plan.resume === undefined ? [] : [`--resume=${plan.resume}`]),
    ...(plan.maxTurns === undefined ? [] : [`--max-turns=${plan.maxTurns}`]),
  ];
  assertNoBypass(argv);
  return argv;
}

/** Refuses an argv that would let Claude Code skip its permission questions. */
export function assertNoBypass(argv: readonly string[]): void {
  const bad = argv.find(
    (argument, index) =>
      BYPASS.some((flag) => argument === flag || argument.startsWith(`${flag}=`)) ||
      (argument === '--permission-mode' && argv[index + 1] !== 'default') ||
      (argument.startsWith('--permission-mode=') && argument !== '--permission-mode=default'),
  );
  if (bad !== undefined)
    throw new SkillhostError(
      'INTERNAL_ERROR',
      `refusing to start Claude Code with ${JSON.stringify(bad)}: skillhost never turns its permission questions off`,
    );
}

/** The `--mcp-config` file: skillhost's server, by the name its tools will carry. */
export function claudeMcpConfig(server: CliMcpServer): string {
  const entry =
    server.transport === 'stdio'
      ? { type: 'stdio', command: server.command, args: server.args, env: server.env }
      : {
          type: 'http',
          url: server.url,
          ...(server.headers === undefined ? {} : { headers: server.headers }),
        };
  return `${JSON.stringify({ mcpServers: { [server.name]: entry } }, null, 2)}\n`;
}
