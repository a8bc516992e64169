import { SkillhostError } from '../errors.js';
import { parseAllowedTools } from '../policy/allowed-tools.js';
import type { Decision, PolicyConfig, ToolRequest } from '../policy/engine.js';
import { parseShell } from '../policy/shell-syntax.js';
import {
  type CanonicalTool,
  canonicalTool,
  RUNTIME_TOOLS_ALLOWED_BY_DEFAULT,
} from '../policy/tools.js';

/**
 * The command-line agents' tools in the policy's grammar: each of their built-in tools (Claude
 * Code's `Bash`, `Read`, `Edit`, …; an ACP agent's tool kinds) and each of ours, as the
 * `ToolRequest` the same `evaluate` decides. A tool the policy has no name for maps to nothing,
 * and is denied.
 */

type Json = Record<string, unknown>;

/** The runtime's own tools, by the name the MCP server gives them. */
const RUNTIME_TOOL_NAMES = [
  'skillhost_activate',
  'skillhost_read',
  'skillhost_run',
  'skillhost_search',
] as const;

/** skillhost's own tools (activate, read, run, search): the runtime decides each call itself. */
export function isRuntimeTool(tool: string): boolean {
  const canonical = canonicalTool(tool);
  return (
    canonical === 'activate_skill' ||
    canonical === 'read_skill_resource' ||
    canonical === 'run_skill_script' ||
    canonical === 'search_skills'
  );
}

/** Claude Code's built-in tools → canonical tools. */
const CLAUDE_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  Bash: 'bash',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'notebook_edit',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'glob',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  Task: 'task',
  Agent: 'task',
  TodoWrite: 'todo',
};

/** Canonical tools → the Claude Code built-ins that are them (`--tools`). */
const CLAUDE_BUILTINS: Readonly<Partial<Record<CanonicalTool, readonly string[]>>> = {
  bash: ['Bash'],
  read: ['Read'],
  write: ['Write'],
  edit: ['Edit', 'MultiEdit'],
  notebook_edit: ['NotebookEdit'],
  glob: ['Glob'],
  grep: ['Grep'],
  web_fetch: ['WebFetch'],
  web_search: ['WebSearch'],
  task: ['Task'],
  todo: ['TodoWrite'],
};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A path as the policy reads it: relative to the working folder when inside it, else as given. */
export function workspacePath(path: string, cwd: string): string {
  const base = cwd.endsWith('/') ? cwd.slice(0, -1) : cwd;
  if (path === base) return '.';
  if (base !== '' && path.startsWith(`${base}/`)) return path.slice(base.length + 1);
  return path;
}

function fileRequest(tool: CanonicalTool, path: string | undefined, cwd: string): ToolRequest {
  return path === undefined ? { tool } : { tool, path: workspacePath(path, cwd) };
}

/** The MCP tool name an agent gives one of our tools: `mcp__SERVER__skillhost_run` (Claude Code). */
function runtimeToolOf(name: string, server: string): string | undefined {
  for (const tool of RUNTIME_TOOL_NAMES) {
    if (name === `mcp__${server}__${tool}` || name === `mcp_${server}_${tool}`) return tool;
  }
  return undefined;
}

/**
 * A Claude Code tool call as the policy reads it: `Bash` with its command, the file tools with
 * their path (relative to `cwd` when inside it), our MCP tools by their canonical names.
 */
export function claudeToolRequest(
  tool: string,
  input: unknown,
  context: { readonly server: string; readonly cwd: string },
): ToolRequest | undefined {
  const fields = (input ?? {}) as Json;
  const runtime = runtimeToolOf(tool, context.server);
  if (runtime !== undefined) return { tool: canonicalTool(runtime) as CanonicalTool };
  const canonical = CLAUDE_TOOLS[tool];
  if (canonical === undefined) return undefined;
  switch (canonical) {
    case 'bash':
      return { tool: 'bash', command: typeof fields.command === 'string' ? fields.command : '' };
    case 'read':
    case 'write':
    case 'edit':
      return fileRequest(canonical, text(fields.file_path), context.cwd);
    case 'notebook_edit':
      return fileRequest(canonical, text(fields.notebook_path), context.cwd);
    case 'glob':
    case 'grep':
      return fileRequest(canonical, text(fields.path), context.cwd);
    default:
      return { tool: canonical };
  }
}

/** What an ACP agent says of a tool call (the `toolCall` of `session/request_permission`). */
export interface AcpToolCallLike {
  readonly toolCallId?: string;
  readonly title?: string | null;
  readonly name?: string | null;
  readonly kind?: string | null;
  readonly rawInput?: unknown;
  readonly locations?: ReadonlyArray<{ readonly path: string }> | null;
}

/**
 * One of our MCP tools, recognised strictly: the kind says nothing else (`other` or none), and
 * the name, the id or the title is exactly how the agent names a tool of our server (Gemini CLI:
 * `mcp_SERVER_TOOL__ID`, `TOOL (SERVER MCP Server)`; Cursor: `providerIdentifier` + `toolName`).
 */
function acpRuntimeTool(call: AcpToolCallLike, server: string): string | undefined {
  if (call.kind !== undefined && call.kind !== null && call.kind !== 'other') return undefined;
  const raw = (call.rawInput ?? {}) as Json;
  for (const tool of RUNTIME_TOOL_NAMES) {
    const named =
      call.name === tool ||
      (typeof call.name === 'string' && runtimeToolOf(call.name, server) === tool) ||
      (call.toolCallId?.startsWith(`mcp_${server}_${tool}__`) ?? false) ||
      call.title === `${tool} (${server} MCP Server)` ||
      (raw.providerIdentifier === server && raw.toolName === tool);
    if (named) return tool;
  }
  return undefined;
}

/**
 * An ACP tool call as the policy reads it, by its kind: read, edit (delete and move write),
 * search (grep), execute (bash, with the command from its input or title), fetch; one of our
 * tools by its name. Anything else (think, switch_mode, other) maps to nothing.
 */
export function acpToolRequest(
  call: AcpToolCallLike,
  context: { readonly server: string; readonly cwd: string },
): ToolRequest | undefined {
  const runtime = acpRuntimeTool(call, context.server);
  if (runtime !== undefined) return { tool: canonicalTool(runtime) as CanonicalTool };
  const raw = (call.rawInput ?? {}) as Json;
  const path =
    text(call.locations?.[0]?.path) ??
    text(raw.path) ??
    text(raw.file_path) ??
    text(raw.absolute_path) ??
    text(raw.filePath);
  switch (call.kind) {
    case 'read':
      return fileRequest('read', path, context.cwd);
    case 'edit':
      return fileRequest('edit', path, context.cwd);
    case 'delete':
    case 'move':
      return fileRequest('write', path, context.cwd);
    case 'search':
      return fileRequest('grep', path, context.cwd);
    case 'execute':
      return { tool: 'bash', command: text(raw.command) ?? text(call.title) ?? '' };
    case 'fetch':
      return { tool: 'web_fetch' };
    default:
      return undefined;
  }
}

function decisionOf(config: PolicyConfig, tool: CanonicalTool): Decision {
  return config.defaults?.[tool] ?? config.defaultDecision ?? 'ask';
}

/**
 * The Claude Code built-ins the host's tools stand for (`--tools`): the CLI keeps these and no
 * others (never its own `Skill` tool, which would load skills past the runtime).
 */
export function claudeBuiltinTools(hostTools: readonly string[]): string[] {
  const names = new Set<string>();
  for (const tool of hostTools) {
    const canonical = canonicalTool(tool) ?? CLAUDE_TOOLS[tool];
    for (const name of (canonical === undefined ? undefined : CLAUDE_BUILTINS[canonical]) ?? [])
      names.add(name);
  }
  return [...names].sort();
}

/**
 * What Claude Code may be told up front (`--allowedTools`, `--disallowedTools`), in its syntax:
 * allowed, a tool the host allows by default that no deny rule or narrowing can touch (and our
 * activate, read and search tools, which the runtime allows unless denied); disallowed, the
 * host's deny rules as written and the tools it denies by default. A tool the policy would ask
 * about is in neither list: its calls come to the permission callback.
 */
export function claudePermissionFlags(
  config: PolicyConfig,
  server: string,
): { readonly allowed: readonly string[]; readonly disallowed: readonly string[] } {
  const deny = parseAllowedTools((config.deny ?? []).join(' ')).grants;
  const denied = new Set(deny.flatMap((rule) => rule.tools));
  const ceiling = new Set(config.tools.map((tool) => canonicalTool(tool) ?? tool));
  const allowed: string[] = [];
  const disallowed: string[] = [];
  const claudeNames = (tool: CanonicalTool): readonly string[] => {
    if (tool === 'activate_skill') return [`mcp__${server}__skillhost_activate`];
    if (tool === 'read_skill_resource') return [`mcp__${server}__skillhost_read`];
    if (tool === 'run_skill_script') return [`mcp__${server}__skillhost_run`];
    if (tool === 'search_skills') return [`mcp__${server}__skillhost_search`];
    return CLAUDE_BUILTINS[tool] ?? [];
  };
  for (const tool of [...ceiling].sort()) {
    const canonical = canonicalTool(tool);
    if (canonical === undefined) continue;
    const decision = decisionOf(config, canonical);
    if (decision === 'deny') {
      disallowed.push(...claudeNames(canonical));
      continue;
    }
    const byDefault =
      decision === 'allow' ||
      (RUNTIME_TOOLS_ALLOWED_BY_DEFAULT.includes(canonical) &&
        config.defaults?.[canonical] === undefined);
    if (byDefault && !denied.has(canonical) && config.narrow !== true && config.shadow !== true)
      allowed.push(...claudeNames(canonical));
  }
  for (const rule of deny) {
    if (rule.syntax === 'tool') disallowed.push(rule.raw);
    else for (const tool of rule.tools) disallowed.push(...claudeNames(tool));
  }
  return { allowed, disallowed: [...new Set(disallowed)] };
}

/**
 * The words of an `--acp-command`: one plain command, read as a shell would read its words
 * (quotes and escapes), with no expansion, substitution, pipe, list or redirection, so that
 * what runs is exactly what was written.
 */
export function splitCommandLine(line: string): string[] {
  const parsed = parseShell(line);
  const command = parsed.commands[0];
  const plain =
    parsed.commands.length === 1 &&
    parsed.problems.length === 0 &&
    parsed.opaque.length === 0 &&
    command?.topLevel === true &&
    command.assignments.length === 0 &&
    command.words.length > 0 &&
    command.words.every((word) => word.literal) &&
    !/[;&|<>`$()]/.test(line.replace(/'[^']*'|"[^"$`\\]*"/g, ''));
  if (!plain || command === undefined)
    throw new SkillhostError(
      'CLI_AGENT_COMMAND_INVALID',
      `--acp-command ${JSON.stringify(line)} is not one plain command (a program and its arguments)`,
    );
  return command.words.map((word) => word.text);
}
