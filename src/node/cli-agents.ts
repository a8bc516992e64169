import { canonicalTool, type PolicyConfig, parseAllowedTools, SkillhostError } from '../core.js';
import { type CliAgentDriver, type CliMcpServer, splitCommandLine } from '../internal.js';
import { type AcpAgentSpec, createAcpDriver } from './acp-driver.js';
import { type ClaudeDriverOptions, createClaudeDriver } from './claude-driver.js';
import { createCursorPrintDriver } from './cursor-print.js';
import { skillhostBin } from './self.js';

/**
 * The command-line agents skillhost drives, by provider name, and the MCP server they are given:
 * `skillhost mcp` of this very package, run by the absolute path of the running node (never
 * `npx`, which would fetch whatever the registry has under that name).
 */

/** The providers that are command-line agents. */
export const CLI_PROVIDERS = ['claude', 'cursor', 'gemini', 'acp'] as const;
export type CliProviderName = (typeof CLI_PROVIDERS)[number];

/** The server name our tools carry in every agent (`mcp__skillhost__skillhost_run`). */
export const MCP_SERVER_NAME = 'skillhost';

export { skillhostBin } from './self.js';

/**
 * `skillhost mcp ARGS…` for one session, as a stdio server an agent spawns: `node` by the
 * absolute path of the running process, this package's bin, the session's arguments (its
 * sources, policy flags, audit log) and environment.
 */
export function skillhostMcpServer(options: {
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly nodePath?: string;
  readonly binPath?: string;
  readonly name?: string;
}): CliMcpServer {
  return {
    transport: 'stdio',
    name: options.name ?? MCP_SERVER_NAME,
    command: options.nodePath ?? process.execPath,
    args: [options.binPath ?? skillhostBin(), 'mcp', ...options.args],
    env: { ...(options.env ?? {}) },
  };
}

export const GEMINI_MINIMUM_VERSION = '0.61.0';

/** Canonical tools → Gemini CLI's built-in tools. */
const GEMINI_TOOLS: Readonly<Partial<Record<string, readonly string[]>>> = {
  bash: ['run_shell_command'],
  read: ['read_file', 'read_many_files'],
  write: ['write_file'],
  edit: ['replace'],
  glob: ['glob', 'list_directory'],
  grep: ['grep_search', 'search_file_content'],
  web_fetch: ['web_fetch'],
  web_search: ['google_web_search'],
};

/**
 * Gemini CLI's admin policy (TOML) for one session: ask the client about every call of every
 * tool, and deny outright what skillhost's policy denies: its command deny rules as command
 * prefixes (an exact command becomes its prefix: broader, never narrower), tools it denies by
 * default or by a rule without a pattern. Gemini runs commands it knows to be safe (read-only,
 * in the workspace) without asking even so; these deny rules still stop them.
 */
export function geminiPolicy(config: PolicyConfig | undefined): string {
  const lines = [
    '# Written by skillhost for one session.',
    '[[rule]]',
    'toolName = "*"',
    'decision = "ask_user"',
    'priority = 900',
  ];
  const deny = (fields: string[]) =>
    lines.push('', '[[rule]]', ...fields, 'decision = "deny"', 'priority = 999');
  const toolsDenied = new Set<string>();
  for (const [tool, decision] of Object.entries(config?.defaults ?? {}))
    if (decision === 'deny') toolsDenied.add(canonicalTool(tool) ?? tool);
  for (const grant of parseAllowedTools((config?.deny ?? []).join(' ')).grants) {
    if (grant.command !== undefined && grant.tools.includes('bash'))
      deny([
        'toolName = "run_shell_command"',
        `commandPrefix = ${JSON.stringify(grant.command.argv.join(' '))}`,
      ]);
    else if (grant.command === undefined && grant.path === undefined)
      for (const tool of grant.tools) toolsDenied.add(tool);
  }
  for (const tool of [...toolsDenied].sort())
    for (const name of GEMINI_TOOLS[tool] ?? []) deny([`toolName = ${JSON.stringify(name)}`]);
  return `${lines.join('\n')}\n`;
}

/** Gemini CLI in ACP mode (`gemini --acp -m MODEL`). */
export function geminiSpec(
  command = 'gemini',
  prefix: readonly string[] = [],
  policy?: PolicyConfig,
): AcpAgentSpec {
  return {
    provider: 'gemini',
    label: 'Gemini CLI',
    command,
    args: [...prefix, '--acp'],
    versionPrefix: prefix,
    modelArgs: (model) => ['-m', model],
    // An admin policy of the session's, above the user's and the project's (see geminiPolicy),
    // and its approval mode kept at the default.
    settingsArgs: (write) => [
      '--approval-mode',
      'default',
      '--admin-policy',
      write('policy.toml', geminiPolicy(policy)),
    ],
    minimum: GEMINI_MINIMUM_VERSION,
    installHint:
      'install Gemini CLI with npm install -g @google/gemini-cli (an older one may run with --acp-command "gemini --experimental-acp")',
    loginHint: 'log in to Gemini CLI once (run gemini and choose a login), or set GEMINI_API_KEY',
    authMethod: (methods, env) => {
      const offered = new Set(methods.map((method) => method.id));
      const wanted =
        env.GEMINI_API_KEY !== undefined
          ? 'gemini-api-key'
          : env.GOOGLE_API_KEY !== undefined || env.GOOGLE_GENAI_USE_VERTEXAI === 'true'
            ? 'vertex-ai'
            : 'oauth-personal';
      return offered.has(wanted) ? wanted : undefined;
    },
  };
}

const CURSOR_INSTALL_HINT = "install Cursor's CLI with curl https://cursor.com/install -fsS | bash";
const CURSOR_LOGIN_HINT = 'log in once with agent login, or set CURSOR_API_KEY';

/** Cursor's CLI in ACP mode (`agent acp`), logged in with its own credentials (`cursor_login`). */
export function cursorSpec(command = 'agent', prefix: readonly string[] = []): AcpAgentSpec {
  return {
    provider: 'cursor',
    label: "Cursor's CLI",
    command,
    args: [...prefix, 'acp'],
    versionPrefix: prefix,
    minimum: '0.0.0',
    installHint: CURSOR_INSTALL_HINT,
    loginHint: CURSOR_LOGIN_HINT,
    authenticateFirst: true,
    authMethod: (methods) =>
      methods.some((method) => method.id === 'cursor_login') ? 'cursor_login' : undefined,
  };
}

/** Any agent that speaks ACP on its standard input and output, from `--acp-command "CMD ARGS"`. */
export function acpCommandSpec(line: string): AcpAgentSpec {
  const [command, ...args] = splitCommandLine(line);
  return {
    provider: 'acp',
    label: `the ACP agent ${command}`,
    command: command as string,
    args,
    installHint: `check that ${command} is installed and on PATH`,
    loginHint: `log in with ${command} itself first`,
  };
}

export interface CliDriverChoice {
  readonly provider: string;
  /** The environment of the probe. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** For `acp`: the agent's command line. */
  readonly acpCommand?: string;
  /** The program of `claude`, `cursor` or `gemini`, when not the usual name on PATH. */
  readonly command?: string;
  /** Arguments before the driver's (a script for node). */
  readonly commandPrefix?: readonly string[];
  /** Claude Code's tool settings (see `claudeBuiltinTools`, `claudePermissionFlags`). */
  readonly claude?: Pick<
    ClaudeDriverOptions,
    'builtinTools' | 'allowedTools' | 'disallowedTools' | 'systemPromptMode' | 'tempDir'
  >;
  readonly clientVersion?: string;
  /** The session's policy: Gemini CLI is given its deny rules (see `geminiPolicy`). */
  readonly policy?: PolicyConfig;
  /**
   * Cursor in print mode rather than ACP (`--cursor-print`), after `cursorPrintWarning` allowed
   * it; its permission settings come from `policy`.
   */
  readonly cursorPrint?: boolean;
  /** Where a print-mode session's private folder is made (default: the system's temporary folder). */
  readonly tempDir?: string;
}

/** The driver of a command-line provider. */
export function createCliAgentDriver(choice: CliDriverChoice): CliAgentDriver {
  const prefix = choice.commandPrefix ?? [];
  switch (choice.provider) {
    case 'claude':
      return createClaudeDriver({
        ...(choice.claude ?? {}),
        ...(choice.command === undefined ? {} : { command: choice.command }),
        commandPrefix: prefix,
        env: choice.env,
        cwd: choice.cwd,
      });
    case 'cursor':
      if (choice.cursorPrint === true)
        return createCursorPrintDriver({
          spec: {
            label: "Cursor's CLI (print mode)",
            command: choice.command ?? 'agent',
            prefix,
            minimum: '0.0.0',
            installHint: CURSOR_INSTALL_HINT,
            loginHint: CURSOR_LOGIN_HINT,
          },
          env: choice.env,
          cwd: choice.cwd,
          policy: choice.policy ?? { tools: [] },
          ...(choice.tempDir === undefined ? {} : { tempDir: choice.tempDir }),
        });
      return createAcpDriver({
        spec: cursorSpec(choice.command, prefix),
        env: choice.env,
        cwd: choice.cwd,
        ...(choice.clientVersion === undefined ? {} : { clientVersion: choice.clientVersion }),
      });
    case 'gemini':
    case 'acp': {
      let spec: AcpAgentSpec;
      if (choice.provider === 'acp') {
        if (choice.acpCommand === undefined)
          throw new SkillhostError(
            'CLI_AGENT_COMMAND_INVALID',
            'the acp provider needs the agent\'s command: --acp-command "CMD ARGS"',
          );
        spec = acpCommandSpec(choice.acpCommand);
      } else spec = geminiSpec(choice.command, prefix, choice.policy);
      return createAcpDriver({
        spec,
        env: choice.env,
        cwd: choice.cwd,
        ...(choice.clientVersion === undefined ? {} : { clientVersion: choice.clientVersion }),
      });
    }
    default:
      throw new SkillhostError(
        'MODEL_PROVIDER_UNKNOWN',
        `${choice.provider} is not a command-line agent: use ${CLI_PROVIDERS.join(', ')}`,
      );
  }
}

/**
 * Whether Cursor's print mode may be used: only when the user asked (`--cursor-print`) and no
 * question would reach anyone, since that mode cannot ask: the policy asks about nothing, or
 * every question is answered yes beforehand (`approveAll`: `--yes`). Answers the warning to show;
 * throws `CLI_AGENT_MODE_UNSAFE` otherwise.
 */
export function cursorPrintWarning(
  policy: PolicyConfig,
  options: { readonly approveAll?: boolean } = {},
): string {
  const asks =
    (policy.defaultDecision ?? 'ask') === 'ask' ||
    Object.values(policy.defaults ?? {}).some((decision) => decision === 'ask');
  if (asks && options.approveAll !== true)
    throw new SkillhostError(
      'CLI_AGENT_MODE_UNSAFE',
      "Cursor's print mode cannot ask for approval, and the policy asks about some tools: use Cursor's ACP mode (leave out --cursor-print), or approve every call beforehand with --yes",
    );
  return "Cursor's print mode cannot ask for approval: what the policy allows runs without a question, and Cursor's own tools are checked only by its own settings, not by skillhost's deny rules";
}
