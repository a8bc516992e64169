import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The real MCP clients the clients suite drives, pinned, and installed from the npm registry into
 * a cache outside the repository (never the project's dependencies): one npm prefix per package,
 * `<cache>/<name>@<version>`, made once and reused by every later run.
 */

export type ClientKey = 'node' | 'inspector' | 'claude' | 'codex' | 'gemini';

export interface PinnedPackage {
  readonly key: ClientKey;
  /** The npm package. */
  readonly name: string;
  readonly version: string;
  /**
   * Whether its install scripts run. Only `node` needs one (it fetches the platform's binary);
   * the clients are installed without theirs (native builds of optional keychain and terminal
   * modules, Claude Code's copy of its binary, which the suite runs from its platform package).
   */
  readonly scripts: boolean;
}

/** The pinned versions (STACK.md, "real clients in tests"). */
export const PINNED: readonly PinnedPackage[] = [
  // The Inspector (engines >=22.19) runs on it, and so do the other Node-based clients, so that
  // they run alike on every Node the tests run on; the server under test runs on the test's Node.
  { key: 'node', name: 'node', version: '22.23.3', scripts: true },
  { key: 'inspector', name: '@modelcontextprotocol/inspector', version: '2.12.0', scripts: false },
  { key: 'claude', name: '@anthropic-ai/claude-code', version: '2.1.332', scripts: false },
  { key: 'codex', name: '@openai/codex', version: '0.171.0', scripts: false },
  { key: 'gemini', name: '@google/gemini-cli', version: '0.61.0', scripts: false },
];

/** What the tests run: absolute paths. */
export interface InstalledClients {
  readonly cache: string;
  /** Node 22 from the npm registry. */
  readonly node: string;
  /** The Inspector's launcher (`inspector --cli …`), a script for `node`. */
  readonly inspector: string;
  /** Claude Code's native binary, from its platform package. */
  readonly claude: string;
  /** Codex's launcher (bin/codex.js), a script for `node`; it runs the platform binary. */
  readonly codex: string;
  /** Gemini CLI's bundle, a script for `node`. */
  readonly gemini: string;
  /** Each package's version as installed, e.g. `@openai/codex@0.171.0`. */
  readonly versions: readonly string[];
}

/** `$SKILLHOST_CLIENTS_CACHE`, or `~/.cache/skillhost-test-clients`. */
export function clientsCache(env: Readonly<Record<string, string | undefined>>): string {
  const configured = env.SKILLHOST_CLIENTS_CACHE;
  return configured !== undefined && configured !== ''
    ? configured
    : join(homedir(), '.cache', 'skillhost-test-clients');
}

/** `<cache>/<name without scope>@<version>`. */
export function packageFolder(cache: string, pinned: PinnedPackage): string {
  const bare = pinned.name.slice(pinned.name.lastIndexOf('/') + 1);
  return join(cache, `${bare}@${pinned.version}`);
}

/** Why the clients cannot be had; the preflight turns it into the suite's reason. */
export class ClientsUnavailable extends Error {
  override readonly name = 'ClientsUnavailable';
}

const STAMP = 'skillhost-installed.json';
/** A generous bound for one package (Claude Code and Codex carry 200–400 MB binaries). */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function run(command: string, args: readonly string[], timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The platform package holding Claude Code's binary here, e.g. `claude-code-linux-x64`. */
function claudePlatformPackages(): string[] {
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : undefined;
  if (arch === undefined || process.platform !== 'linux') return [];
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })
    ?.header?.glibcVersionRuntime;
  const musl = `@anthropic-ai/claude-code-linux-${arch}-musl`;
  const gnu = `@anthropic-ai/claude-code-linux-${arch}`;
  return glibc === undefined ? [musl, gnu] : [gnu, musl];
}

/** The file to run in an installed package, relative to its folder. */
function entryOf(key: ClientKey, folder: string): string {
  const modules = join(folder, 'node_modules');
  switch (key) {
    case 'node':
      return join(modules, 'node', 'bin', 'node');
    case 'inspector':
      return join(
        modules,
        '@modelcontextprotocol',
        'inspector',
        'clients',
        'launcher',
        'build',
        'index.js',
      );
    case 'codex':
      return join(modules, '@openai', 'codex', 'bin', 'codex.js');
    case 'gemini':
      return join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js');
    case 'claude': {
      const found = claudePlatformPackages()
        .map((name) => join(modules, name, 'claude'))
        .find((path) => existsSync(path));
      if (found === undefined)
        throw new ClientsUnavailable(
          `no Claude Code binary for ${process.platform}-${process.arch} in ${folder}`,
        );
      return found;
    }
  }
}

/** npm's error in one line: its code and first message (`ECONNREFUSED: request to … failed`). */
function npmError(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.replace(/^npm (?:error|ERR!)\s*/, '').trim())
    .filter((line) => line !== '');
  const code = lines.find((line) => line.startsWith('code '))?.slice(5);
  const message = lines.find(
    (line) => !/^(code|syscall|errno|at) |^A complete log|^If you are behind a proxy/.test(line),
  );
  return [code, message].filter((part) => part !== undefined).join(': ') || 'npm failed';
}

/** Installs one package into its folder (through a temporary sibling, renamed when complete). */
async function install(cache: string, pinned: PinnedPackage, log: (line: string) => void) {
  const folder = packageFolder(cache, pinned);
  if (existsSync(join(folder, STAMP))) return folder;
  mkdirSync(cache, { recursive: true });
  const temporary = mkdtempSync(`${folder}.partial-`);
  const spec = `${pinned.name}@${pinned.version}`;
  log(`clients suite: installing ${spec} into ${folder}`);
  const started = Date.now();
  const result = await run(
    'npm',
    [
      'install',
      '--prefix',
      temporary,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      // A machine without the registry learns it in seconds, not minutes.
      '--fetch-retries=2',
      '--fetch-retry-mintimeout=2000',
      '--fetch-retry-maxtimeout=10000',
      ...(pinned.scripts ? [] : ['--ignore-scripts']),
      spec,
    ],
    INSTALL_TIMEOUT_MS,
  );
  if (result.code !== 0) {
    rmSync(temporary, { recursive: true, force: true });
    throw new ClientsUnavailable(
      `cannot install ${spec} from the npm registry: ${npmError(result.output)}`,
    );
  }
  writeFileSync(join(temporary, STAMP), `${JSON.stringify({ package: spec })}\n`);
  try {
    renameSync(temporary, folder);
  } catch (error) {
    // Another run finished the same install first: keep its copy.
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(join(folder, STAMP))) throw error;
  }
  log(`clients suite: installed ${spec} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return folder;
}

/**
 * Runs a command with nothing of the test run's environment but PATH, in a scratch home, and
 * answers its exit code and output. The preflight runs these in a loopback-only namespace: a
 * client's `--version` may try to report its start.
 */
export type VersionRunner = (
  command: string,
  args: readonly string[],
) => Promise<{ readonly code: number | null; readonly output: string }>;

/** Checks that an installed entry runs and reports the pinned version. */
async function checkVersion(
  runVersion: VersionRunner,
  pinned: PinnedPackage,
  command: string,
  args: readonly string[],
): Promise<void> {
  const result = await runVersion(command, [...args, '--version']);
  if (result.code !== 0 || !result.output.includes(pinned.version))
    throw new ClientsUnavailable(
      `${pinned.name}@${pinned.version} does not run: ${result.output.trim().slice(-300)}`,
    );
}

/**
 * Makes sure every pinned package is in the cache (installing what is missing, in parallel) and
 * runs; answers the paths to run. Throws `ClientsUnavailable` with the reason otherwise.
 */
export async function ensureClients(
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
  runVersion: VersionRunner,
): Promise<InstalledClients> {
  const cache = clientsCache(env);
  const folders = await Promise.all(PINNED.map((pinned) => install(cache, pinned, log)));
  const entries = new Map<ClientKey, string>();
  PINNED.forEach((pinned, index) => {
    const entry = entryOf(pinned.key, folders[index] as string);
    if (!existsSync(entry))
      throw new ClientsUnavailable(`${pinned.name}@${pinned.version} has no ${entry}`);
    entries.set(pinned.key, entry);
  });
  const at = (key: ClientKey) => entries.get(key) as string;
  const pinnedOf = (key: ClientKey) => PINNED.find((pinned) => pinned.key === key) as PinnedPackage;
  const node = at('node');
  await Promise.all([
    checkVersion(runVersion, pinnedOf('node'), node, []),
    checkVersion(runVersion, pinnedOf('claude'), at('claude'), []),
    checkVersion(runVersion, pinnedOf('codex'), node, [at('codex')]),
    checkVersion(runVersion, pinnedOf('gemini'), node, [at('gemini')]),
    checkVersion(runVersion, pinnedOf('inspector'), node, [at('inspector')]),
  ]);
  const versions = PINNED.map((pinned) => {
    const manifest = JSON.parse(
      readFileSync(
        join(packageFolder(cache, pinned), 'node_modules', pinned.name, 'package.json'),
        'utf8',
      ),
    ) as { version: string };
    return `${pinned.name}@${manifest.version}`;
  });
  return {
    cache,
    node,
    inspector: at('inspector'),
    claude: at('claude'),
    codex: at('codex'),
    gemini: at('gemini'),
    versions,
  };
}
