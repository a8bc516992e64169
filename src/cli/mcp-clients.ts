import { replaceTomlTables, tomlKey, tomlString } from './toml-edit.js';

/**
 * What skillhost knows of each MCP client it sets up: the skill folders the client serves itself
 * (so `skillhost mcp --client NAME` leaves them out), whether it shows the model the server's
 * instructions, and the files and settings that add the server without turning its approvals
 * off. Checked against Claude Code 2.1.332, Codex CLI 0.171.0 and Gemini CLI 0.61.0 (their
 * own code and the clients suite), and against Cursor's and VS Code's documentation.
 */
export const MCP_CLIENTS = ['claude', 'codex', 'gemini', 'cursor', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export const CLIENT_TITLES: Readonly<Record<McpClient, string>> = {
  claude: 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Gemini CLI',
  cursor: 'Cursor',
  vscode: 'VS Code (GitHub Copilot)',
};

export function isMcpClient(name: string): name is McpClient {
  return (MCP_CLIENTS as readonly string[]).includes(name);
}

/** The model-facing tools that only read: pre-approved in the clients; skillhost_run stays asked. */
export const READ_ONLY_TOOLS = [
  'skillhost_activate',
  'skillhost_read',
  'skillhost_search',
] as const;

/**
 * The clients known to show the model the server's instructions (the catalog): for them the
 * activation tool's description needs no catalog of its own.
 */
export const SHOWS_INSTRUCTIONS: ReadonlySet<McpClient> = new Set(['claude', 'codex']);

export interface ClientPlaces {
  readonly projectDir: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: string;
  readonly resolvePath: (base: string, path: string) => string;
}

function codexHome(places: ClientPlaces): string {
  const configured = places.env.CODEX_HOME;
  return configured !== undefined && configured !== ''
    ? configured
    : places.resolvePath(places.homeDir, '.codex');
}

/** The skill folders (absolute) a client reads and serves itself, project and user. */
export function clientSkillFolders(client: McpClient, places: ClientPlaces): string[] {
  const project = (folder: string) => places.resolvePath(places.projectDir, folder);
  const home = (folder: string) => places.resolvePath(places.homeDir, folder);
  switch (client) {
    case 'claude':
      return [project('.claude/skills'), home('.claude/skills')];
    case 'codex':
      return [
        project('.agents/skills'),
        home('.agents/skills'),
        places.resolvePath(codexHome(places), 'skills'),
      ];
    case 'gemini':
      return [
        project('.gemini/skills'),
        project('.agents/skills'),
        home('.gemini/skills'),
        home('.agents/skills'),
      ];
    case 'cursor':
      return [
        project('.cursor/skills'),
        project('.agents/skills'),
        project('.claude/skills'),
        project('.codex/skills'),
        home('.cursor/skills'),
        home('.claude/skills'),
        home('.codex/skills'),
      ];
    case 'vscode':
      return [
        project('.github/skills'),
        project('.claude/skills'),
        project('.agents/skills'),
        home('.copilot/skills'),
        home('.claude/skills'),
        home('.agents/skills'),
      ];
  }
}

/** One file a setup changes: its path, why, and how its new text is made from the old. */
export interface ConfigEdit {
  readonly path: string;
  readonly purpose: string;
  /** The entries added, as shown when nothing is written. */
  readonly snippet: string;
  /** The file's new text from its current one (undefined: no such file); throws when it cannot. */
  apply(current: string | undefined): string;
}

export interface ClientSetup {
  readonly client: McpClient;
  readonly scope: 'user' | 'project';
  readonly edits: readonly ConfigEdit[];
  /** What a user must know that no file says. */
  readonly notes: readonly string[];
}

export interface ServerLaunch {
  /** The server's name in the client's configuration (it shows in the tools' names). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The indentation a JSON text uses (two spaces when it has none). */
function indentOf(text: string | undefined): string {
  const match = /\n([ \t]+)\S/.exec(text ?? '');
  return match?.[1] ?? '  ';
}

function parseJsonObject(current: string | undefined): { [key: string]: Json } {
  if (current === undefined || current.trim() === '') return {};
  let value: Json;
  try {
    value = JSON.parse(current) as Json;
  } catch (error) {
    throw new Error(
      `it is not JSON that can be read (${error instanceof Error ? error.message : String(error)}; comments are not kept, so a file with them is not rewritten)`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('it does not hold a JSON object');
  return value;
}

/** The object at `path` inside `root`, made where missing; throws when something else is there. */
function objectAt(root: { [key: string]: Json }, path: readonly string[]): { [key: string]: Json } {
  let node = root;
  for (const [index, key] of path.entries()) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === undefined) {
      const made: { [key: string]: Json } = {};
      node[key] = made;
      node = made;
      continue;
    }
    if (typeof next !== 'object' || next === null || Array.isArray(next))
      throw new Error(`${path.slice(0, index + 1).join('.')} is not a JSON object`);
    node = next;
  }
  return node;
}

/** An edit of a JSON file: `change` applied to its object, the rest kept; `shown` is what it adds. */
function jsonEdit(
  path: string,
  purpose: string,
  shown: Json,
  change: (root: { [key: string]: Json }) => void,
): ConfigEdit {
  return {
    path,
    purpose,
    snippet: JSON.stringify(shown, null, 2),
    apply: (current) => {
      const root = parseJsonObject(current);
      change(root);
      return `${JSON.stringify(root, null, indentOf(current))}\n`;
    },
  };
}

/** Sets `key` in the object at `at`, keeping every other entry. */
function jsonSetEdit(
  path: string,
  purpose: string,
  at: readonly string[],
  key: string,
  value: Json,
): ConfigEdit {
  const shown: { [key: string]: Json } = {};
  objectAt(shown, at)[key] = value;
  return jsonEdit(path, purpose, shown, (root) => {
    objectAt(root, at)[key] = value;
  });
}

/** Adds the missing `items` to the list at `at`, keeping those already there. */
function jsonListEdits(
  path: string,
  purpose: string,
  lists: ReadonlyArray<{ readonly at: readonly string[]; readonly items: readonly string[] }>,
): ConfigEdit {
  const shown: { [key: string]: Json } = {};
  for (const { at, items } of lists)
    objectAt(shown, at.slice(0, -1))[at.at(-1) as string] = [...items];
  return jsonEdit(path, purpose, shown, (root) => {
    for (const { at, items } of lists) {
      const parent = objectAt(root, at.slice(0, -1));
      const key = at.at(-1) as string;
      const existing = Object.hasOwn(parent, key) ? parent[key] : undefined;
      if (existing !== undefined && !Array.isArray(existing))
        throw new Error(`${at.join('.')} is not a JSON list`);
      const list = (existing as Json[] | undefined) ?? [];
      for (const item of items) if (!list.includes(item)) list.push(item);
      parent[key] = list;
    }
  });
}

/** A file skillhost owns outright (its own policy file in a client's folder). */
function ownFileEdit(path: string, purpose: string, text: string): ConfigEdit {
  return { path, purpose, snippet: text.replace(/\n$/, ''), apply: () => text };
}

function stdioEntry(launch: ServerLaunch, withType: boolean): Json {
  return {
    ...(withType ? { type: 'stdio' } : {}),
    command: launch.command,
    args: [...launch.args],
  };
}

function codexTables(launch: ServerLaunch): string {
  const server = `mcp_servers.${tomlKey(launch.name)}`;
  return [
    `[${server}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
    ...READ_ONLY_TOOLS.flatMap((tool) => [
      '',
      `[${server}.tools.${tool}]`,
      'approval_mode = "approve"',
    ]),
    '',
  ].join('\n');
}

function vscodeUserFile(places: ClientPlaces): string {
  if (places.platform === 'darwin')
    return places.resolvePath(places.homeDir, 'Library/Application Support/Code/User/mcp.json');
  if (places.platform === 'win32') {
    const appData = places.env.APPDATA ?? places.resolvePath(places.homeDir, 'AppData/Roaming');
    return places.resolvePath(appData, 'Code/User/mcp.json');
  }
  const config = places.env.XDG_CONFIG_HOME;
  return places.resolvePath(
    config !== undefined && config !== '' ? config : places.resolvePath(places.homeDir, '.config'),
    'Code/User/mcp.json',
  );
}

/** The files and settings that add the server to a client, at a scope. */
export function clientSetup(
  client: McpClient,
  scope: 'user' | 'project',
  launch: ServerLaunch,
  places: ClientPlaces,
): ClientSetup {
  const project = (path: string) => places.resolvePath(places.projectDir, path);
  const home = (path: string) => places.resolvePath(places.homeDir, path);
  const base = scope === 'project' ? project : home;
  const name = launch.name;
  switch (client) {
    case 'claude': {
      const allow = READ_ONLY_TOOLS.map((tool) => `mcp__${name}__${tool}`);
      const settings = base('.claude/settings.json');
      return {
        client,
        scope,
        edits: [
          jsonSetEdit(
            scope === 'project' ? project('.mcp.json') : home('.claude.json'),
            'the server',
            ['mcpServers'],
            name,
            stdioEntry(launch, true),
          ),
          jsonListEdits(
            settings,
            `pre-approves the read-only tools (${READ_ONLY_TOOLS.join(', ')}); skillhost_run stays asked`,
            [{ at: ['permissions', 'allow'], items: allow }],
          ),
          ...(scope === 'project'
            ? [
                jsonListEdits(
                  project('.claude/settings.local.json'),
                  'approves the project’s server for this checkout (Claude Code asks once otherwise)',
                  [{ at: ['enabledMcpjsonServers'], items: [name] }],
                ),
              ]
            : []),
        ],
        notes: [
          'Claude Code serves the skills of .claude/skills itself; the server leaves them out (--client claude).',
          'Without --allowedTools or these rules, Claude Code asks before each call at its prompt, and refuses in -p runs.',
        ],
      };
    }
    case 'codex': {
      const file =
        scope === 'project'
          ? project('.codex/config.toml')
          : places.resolvePath(codexHome(places), 'config.toml');
      const tables = codexTables(launch);
      return {
        client,
        scope,
        edits: [
          {
            path: file,
            purpose: `the server, with approval_mode = "approve" for the read-only tools; skillhost_run keeps Codex's default`,
            snippet: tables.replace(/\n$/, ''),
            apply: (current) => replaceTomlTables(current ?? '', ['mcp_servers', name], tables),
          },
        ],
        notes: [
          'Codex serves the skills of .agents/skills and ~/.codex/skills itself; the server leaves them out (--client codex).',
          ...(scope === 'project'
            ? ['Codex reads a project’s .codex/config.toml only when it trusts the project.']
            : []),
          'Codex calls read-only tools (readOnlyHint) without asking even without approval_mode; skillhost_run is not destructive and has no network, so Codex runs it too, and skillhost’s own policy decides whether the script runs.',
        ],
      };
    }
    case 'gemini': {
      const policy = [
        '# Added by skillhost mcp config: lets Gemini CLI call skillhost’s read-only tools',
        '# without asking (skillhost_run keeps asking, and is refused in headless runs).',
        '[[rule]]',
        `mcpName = ${tomlString(name)}`,
        `toolName = [${READ_ONLY_TOOLS.map(tomlString).join(', ')}]`,
        'decision = "allow"',
        'priority = 500',
        '',
      ].join('\n');
      return {
        client,
        scope,
        edits: [
          jsonSetEdit(
            base('.gemini/settings.json'),
            'the server (its trust option left off: it would skip every confirmation)',
            ['mcpServers'],
            name,
            stdioEntry(launch, false),
          ),
          ownFileEdit(
            base('.gemini/policies/skillhost.toml'),
            'a policy rule that allows the read-only tools',
            policy,
          ),
          ...(scope === 'project'
            ? [
                jsonSetEdit(
                  home('.gemini/trustedFolders.json'),
                  'trusts the project folder: Gemini CLI starts stdio servers and reads project settings only in trusted folders',
                  [],
                  places.projectDir,
                  'TRUST_FOLDER',
                ),
              ]
            : []),
        ],
        notes: [
          'Gemini CLI serves the skills of .gemini/skills and .agents/skills itself; the server leaves them out (--client gemini).',
          ...(scope === 'user'
            ? [
                'Gemini CLI starts stdio servers only in trusted folders: trust the folder when it asks (or run `gemini trust` there).',
              ]
            : []),
          'Gemini CLI shows the model the server instructions only in trusted folders; the catalog is in skillhost_activate’s description too.',
        ],
      };
    }
    case 'cursor':
      return {
        client,
        scope,
        edits: [
          jsonSetEdit(
            base('.cursor/mcp.json'),
            'the server',
            ['mcpServers'],
            name,
            stdioEntry(launch, false),
          ),
        ],
        notes: [
          'Cursor serves the skills of .cursor/skills, .agents/skills, .claude/skills and .codex/skills itself; the server leaves them out (--client cursor).',
          `Cursor asks before each MCP call unless the tool is in its allowlist: add ${READ_ONLY_TOOLS.map((tool) => `"${name}:${tool}"`).join(', ')} to "mcpAllowlist" in ~/.cursor/permissions.json, or allow them in Cursor's settings (a permissions.json allowlist replaces the one in the settings, so it is not written for you).`,
        ],
      };
    case 'vscode':
      return {
        client,
        scope,
        edits: [
          jsonSetEdit(
            scope === 'project' ? project('.vscode/mcp.json') : vscodeUserFile(places),
            'the server',
            ['servers'],
            name,
            stdioEntry(launch, true),
          ),
        ],
        notes: [
          'VS Code serves the skills of .github/skills, .claude/skills and .agents/skills itself; the server leaves them out (--client vscode).',
          'VS Code asks before a tool runs; choose "Always allow" for the read-only tools when it asks.',
        ],
      };
  }
}
