import { quote } from '../../internal.js';
import { integerOption, type ParsedArgs, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import {
  CLIENT_TITLES,
  clientSkillFolders,
  isMcpClient,
  MCP_CLIENTS,
  type McpClient,
  SHOWS_INSTRUCTIONS,
} from '../mcp-clients.js';
import { printable } from '../printable.js';
import { indexCache, type SourceSettings } from '../registry-options.js';
import {
  type OpenedRuntime,
  policyConfig,
  prepareRuntime,
  RUNTIME_OPTIONS,
} from '../runtime-options.js';
import { VERSION } from '../version.js';

/** Exit code when the server cannot start (the port is taken, say). */
const CANNOT_START = 1;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** A skill's pre-approvals end after this long without a call from its client (seconds). */
const DEFAULT_GRANT_TIMEOUT = 900;

/**
 * Settles on the first SIGINT or SIGTERM. A server runs until it is told to stop; the signal is
 * taken here so that the audit session is closed and the log ends cleanly. The handlers stay
 * until the process exits: clients send more than one signal (Claude Code: SIGINT, then SIGTERM
 * 100 ms later; a terminal's Ctrl-C reaches the whole group), and a signal with no handler left
 * would kill the server while it closes (exit 130 or 143, the audit log unended). Later signals
 * are ignored. A signal handler does not keep the process alive.
 */
function stopSignal(): { readonly stopped: Promise<void> } {
  let signalled = false;
  let resolve: () => void = () => {};
  const stopped = new Promise<void>((done) => {
    resolve = done;
  });
  const stop = () => {
    if (signalled) return;
    signalled = true;
    resolve();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { stopped };
}

function listenFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? error.message : undefined;
}

/** An origin as browsers send it (the adapter's rule, without loading the adapter). */
function isOrigin(origin: string): boolean {
  try {
    return new URL(origin).origin !== 'null';
  } catch {
    return false;
  }
}

export async function run(context: CommandContext): Promise<number> {
  if (context.argv[0] === 'config') {
    const { run: config } = await import('./mcp-config.js');
    return config({ ...context, argv: context.argv.slice(1) });
  }
  return serve(context);
}

async function serve({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    http: { type: 'string' },
    host: { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    watch: { type: 'boolean', negatable: true },
    client: { type: 'string' },
    budget: { type: 'string' },
    'grant-timeout': { type: 'string' },
  });
  if (args.positionals.length > 0 || args.rest.length > 0)
    throw new UsageError('mcp takes options only (or: mcp config)');
  const port =
    args.options.http === undefined ? undefined : integerOption(args.options.http, 'http', 0);
  if (port !== undefined && port > 65535)
    throw new UsageError('--http needs a port from 0 to 65535');
  const host = args.options.host === undefined ? undefined : String(args.options.host);
  if (host !== undefined && port === undefined) throw new UsageError('--host needs --http');
  if (host === '') throw new UsageError('--host needs an address');
  const allowedOrigins = (args.options['allow-origin'] as readonly string[] | undefined) ?? [];
  if (allowedOrigins.length > 0 && port === undefined)
    throw new UsageError('--allow-origin needs --http');
  for (const origin of allowedOrigins) {
    if (!isOrigin(origin))
      throw new UsageError(
        `--allow-origin needs an origin such as http://localhost:3000, not ${quote(origin)}`,
      );
  }
  const clientOption = args.options.client;
  if (clientOption !== undefined && !isMcpClient(String(clientOption)))
    throw new UsageError(`--client is one of ${MCP_CLIENTS.join(', ')}`);
  const client = clientOption === undefined ? undefined : (String(clientOption) as McpClient);
  const budget = integerOption(args.options.budget, 'budget', 8000);
  if (budget < 1) throw new UsageError('--budget needs at least 1 token');
  const grantTimeout = integerOption(
    args.options['grant-timeout'],
    'grant-timeout',
    DEFAULT_GRANT_TIMEOUT,
  );

  const projectDir = deps.resolvePath(deps.cwd, String(args.options.project ?? '.'));
  // Never the terminal: in stdio mode stdin carries the protocol, and a server asks no one.
  const prepared = prepareRuntime(
    args,
    deps,
    { stdout: io.stdout, stderr: io.stderr },
    {},
    {},
    {
      // Watching, the server answers from the index and checks it once it has answered.
      ...(args.options.watch === false ? {} : { server: true }),
      ...(client === undefined
        ? {}
        : {
            leaveOut: clientSkillFolders(client, {
              projectDir,
              homeDir: deps.homeDir,
              env: deps.env,
              platform: deps.platform ?? 'linux',
              resolvePath: deps.resolvePath,
            }),
          }),
    },
  );
  for (const source of prepared.leftOut)
    io.stderr.write(
      `skillhost mcp: leaving out ${printable(source.root)}: ${CLIENT_TITLES[client as McpClient]} serves it itself\n`,
    );
  const signal = stopSignal();
  let opened: OpenedRuntime | undefined;
  const open = () => {
    opened ??= prepared.open();
    return opened.runtime;
  };
  try {
    const cache = indexCache(args, deps);
    const options = {
      name: 'skillhost',
      version: VERSION,
      watch: args.options.watch !== false,
      budget,
      grantsIdleMs: grantTimeout * 1000,
      ...(client !== undefined && SHOWS_INSTRUCTIONS.has(client) ? { toolCatalogBudget: 0 } : {}),
      ...(cache === undefined ? {} : { catalogCache: cache }),
      onError: (error: Error) => io.stderr.write(`skillhost mcp: ${printable(error.message)}\n`),
    };
    if (port === undefined) {
      const { serveStdio } = await import('../../adapters/mcp/index.js');
      // Watching, a server started again answers initialize from what the last one served,
      // before the runtime opens (the watch then checks the skills, as it does the index).
      const early = cache !== undefined && args.options.watch !== false;
      const serving = await serveStdio(early ? open : open(), {
        ...options,
        ...(early && cache !== undefined
          ? { startState: { cache, key: startKey(prepared.settings, args, client) } }
          : {}),
      });
      await Promise.race([serving.closed, signal.stopped]);
      await serving.close();
      return 0;
    }
    const { serveHttp } = await import('../../adapters/mcp/index.js');
    let serving: Awaited<ReturnType<typeof serveHttp>>;
    try {
      serving = await serveHttp(open(), {
        ...options,
        port,
        allowedOrigins,
        ...(host === undefined ? {} : { host }),
      });
    } catch (error) {
      const reason = listenFailure(error);
      if (reason === undefined) throw error;
      io.stderr.write(
        `skillhost: error: cannot serve on ${printable(host ?? '127.0.0.1')}:${port}: ${printable(reason)}\n`,
      );
      return CANNOT_START;
    }
    io.stderr.write(`skillhost mcp: serving MCP at ${serving.url}\n`);
    if (!LOOPBACK.has(serving.host))
      io.stderr.write(
        `skillhost mcp: ${printable(serving.host)} is not a loopback address, and the server has no authentication\n`,
      );
    await signal.stopped;
    await serving.close();
    return 0;
  } finally {
    await opened?.close();
  }
}

/**
 * What the served catalogs depend on besides the budgets: the sources with their trust, the
 * skills switched off or not trusted yet, discovery's settings, the policy and the client whose
 * folders are left out. A server started with other ones never answers from this one's state.
 */
function startKey(
  settings: SourceSettings,
  args: ParsedArgs,
  client: McpClient | undefined,
): string {
  return JSON.stringify({
    policy: policyConfig(args),
    sources: settings.sources.map((source) => [
      source.id,
      source.kind,
      source.root,
      source.trust,
      source.enabled,
    ]),
    disabled: settings.disabled,
    external: settings.externalSkills,
    discovery: settings.discovery,
    client: client ?? null,
  });
}
