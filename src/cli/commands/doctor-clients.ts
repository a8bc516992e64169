import type { CliDeps } from '../io.js';

/** An MCP server entry of a client's configuration that mentions skillhost. */
export interface ClientServer {
  readonly name: string;
  /** The command and its arguments (empty for a server reached by URL). */
  readonly command: readonly string[];
  readonly url?: string;
  /** What is wrong with the command, if anything (see `serverProblem`). */
  readonly problem?: string;
}

/** A client configuration file found on this machine. */
export interface ClientConfig {
  readonly client: string;
  readonly path: string;
  /** Servers that mention skillhost (by command, arguments or URL). */
  readonly servers: readonly ClientServer[];
  /** Set when the file mentions skillhost but could not be read as the client writes it. */
  readonly unparsed?: string;
}

/** Where the MCP clients keep their configuration, in the user's home and in the project. */
function candidates(projectDir: string, deps: CliDeps): Array<{ client: string; path: string }> {
  const home = (path: string) => deps.resolvePath(deps.homeDir, path);
  const project = (path: string) => deps.resolvePath(projectDir, path);
  const codexHome = deps.env.CODEX_HOME;
  return [
    { client: 'Claude Code', path: home('.claude.json') },
    { client: 'Claude Code (project)', path: project('.mcp.json') },
    { client: 'Claude Desktop', path: home('.config/Claude/claude_desktop_config.json') },
    {
      client: 'Claude Desktop',
      path: home('Library/Application Support/Claude/claude_desktop_config.json'),
    },
    {
      client: 'Codex',
      path:
        codexHome !== undefined && codexHome !== ''
          ? deps.resolvePath(codexHome, 'config.toml')
          : home('.codex/config.toml'),
    },
    { client: 'Gemini CLI', path: home('.gemini/settings.json') },
    { client: 'Gemini CLI (project)', path: project('.gemini/settings.json') },
    { client: 'Cursor', path: home('.cursor/mcp.json') },
    { client: 'Cursor (project)', path: project('.cursor/mcp.json') },
    { client: 'VS Code', path: home('.config/Code/User/mcp.json') },
    { client: 'VS Code', path: home('.config/Code/User/settings.json') },
    { client: 'VS Code', path: home('Library/Application Support/Code/User/mcp.json') },
    { client: 'VS Code (project)', path: project('.vscode/mcp.json') },
  ];
}

function serverOf(name: string, value: unknown): ClientServer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const server = value as Record<string, unknown>;
  if (!JSON.stringify(server).includes('skillhost')) return undefined;
  const command = typeof server.command === 'string' ? [server.command] : [];
  const args = Array.isArray(server.args) ? server.args.map(String) : [];
  return {
    name,
    command: [...command, ...args],
    ...(typeof server.url === 'string'
      ? { url: server.url }
      : typeof server.httpUrl === 'string'
        ? { url: server.httpUrl }
        : {}),
  };
}

/** The servers of a JSON configuration: under `mcpServers` or `servers`, at any depth up to 4. */
function jsonServers(value: unknown, depth = 0): ClientServer[] {
  if (typeof value !== 'object' || value === null || depth > 4) return [];
  const found: ClientServer[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if ((key === 'mcpServers' || key === 'servers') && typeof item === 'object' && item !== null) {
      for (const [name, server] of Object.entries(item as Record<string, unknown>)) {
        const entry = serverOf(name, server);
        if (entry !== undefined) found.push(entry);
      }
    } else found.push(...jsonServers(item, depth + 1));
  }
  return found;
}

/** The `[mcp_servers.NAME]` tables of Codex's TOML that mention skillhost (command and args read simply). */
function tomlServers(text: string): ClientServer[] {
  const found: ClientServer[] = [];
  const sections = text.split(/^(?=\[)/m);
  for (const section of sections) {
    const header = /^\[mcp_servers\.("?)([^\]"]+)\1\]/.exec(section);
    if (header === null || !section.includes('skillhost')) continue;
    const command = /^command\s*=\s*"([^"]*)"/m.exec(section)?.[1];
    const args = /^args\s*=\s*\[([^\]]*)\]/m.exec(section)?.[1];
    found.push({
      name: header[2] as string,
      command: [
        ...(command === undefined ? [] : [command]),
        ...(args === undefined
          ? []
          : [...args.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string)),
      ],
    });
  }
  return found;
}

/** Finds the MCP client configurations on this machine and what they say about skillhost. */
export function findClientConfigs(projectDir: string, deps: CliDeps): ClientConfig[] {
  return readClientConfigs(projectDir, deps).map((config) => ({
    ...config,
    servers: config.servers.map((server) => {
      const problem = serverProblem(server, deps);
      return problem === undefined ? server : { ...server, problem };
    }),
  }));
}

function readClientConfigs(projectDir: string, deps: CliDeps): ClientConfig[] {
  const configs: ClientConfig[] = [];
  for (const { client, path } of candidates(projectDir, deps)) {
    let text: string;
    try {
      text = deps.readText(path);
    } catch (error) {
      configs.push({
        client,
        path,
        servers: [],
        unparsed: `cannot be read: ${(error as Error).message}`,
      });
      continue;
    }
    if (text === '') continue;
    if (path.endsWith('.toml')) {
      configs.push({ client, path, servers: tomlServers(text) });
      continue;
    }
    try {
      configs.push({ client, path, servers: jsonServers(JSON.parse(text)) });
    } catch {
      configs.push({
        client,
        path,
        servers: [],
        ...(text.includes('skillhost')
          ? { unparsed: 'mentions skillhost, but is not plain JSON' }
          : {}),
      });
    }
  }
  return configs;
}

/** Why a server's command would not run skillhost as the user expects, if it would not. */
export function serverProblem(server: ClientServer, deps: CliDeps): string | undefined {
  const [program, ...rest] = server.command;
  if (program === undefined) return undefined;
  const base = program.split('/').at(-1) ?? program;
  if ((base === 'npx' || base === 'bunx' || base === 'pnpx') && rest.includes('skillhost'))
    return `runs ${base} skillhost, which fetches whatever package has that name: skillhost is not published, so that is someone else's code or nothing`;
  if (program.startsWith('/') && deps.fs.status(program, true) === undefined)
    return `${program} does not exist`;
  const script = rest.find(
    (argument) => argument.endsWith('bin.js') || argument.endsWith('/skillhost'),
  );
  if (script?.startsWith('/') === true && deps.fs.status(script, true) === undefined)
    return `${script} does not exist`;
  return undefined;
}
