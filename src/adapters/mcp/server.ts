import type { McpServer, Tool } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import {
  type CacheStore,
  createChokidarWatcher,
  type DirectoryWatcher,
  type RegistryEntry,
  SkillhostError,
  type SkillRuntime,
  sha256,
  type TokenCounter,
  type WatchHandle,
} from '../../node/index.js';
import { randomId } from '../../node/internal.js';
import {
  CatalogRenderer,
  DEFAULT_CATALOG_BUDGET,
  DEFAULT_TOOL_CATALOG_BUDGET,
  type ServedCatalogs,
} from './catalogs.js';
import { parsedFrontmatter, registryFrontmatter } from './frontmatter.js';
import { buildInstance } from './instance.js';
import { type ResourceLimits, SKILL_FILE, type SkillResources } from './resources.js';
import { skillUri } from './uris.js';

export { RESULT_META, toCallToolResult } from './tool-result.js';

export interface McpServerOptions {
  /** The name the server gives in its `serverInfo` (default `skillhost`). */
  readonly name?: string;
  /** The version it gives (default `unknown`; the CLI passes its own). */
  readonly version?: string;
  /**
   * Watch the runtime's sources and tell clients when the tools, prompts or resources change
   * (`notifications/…/list_changed`). Default false.
   */
  readonly watch?: boolean;
  /** The watcher (default: the node entry's chokidar watcher). */
  readonly watcher?: DirectoryWatcher;
  /** Most resources `resources/list` returns (default 1000). */
  readonly maxListedResources?: number;
  /**
   * Tokens the catalog in the instructions may take (default 8,000): past it, descriptions are
   * shortened, then skills shown by name, then left out with a marker pointing at
   * skillhost_search.
   */
  readonly budget?: number;
  /**
   * Tokens of the catalog in `skillhost_activate`'s description, for clients that do not show
   * the model the server's instructions (default 800, never more than `budget`; 0 for none).
   */
  readonly toolCatalogBudget?: number;
  /** Loads the exact token counter when a catalog may be cut (default: the o200k tokenizer). */
  readonly loadCounter?: () => Promise<TokenCounter>;
  /**
   * Where catalogs counted exactly are kept between runs (the CLI passes its index cache): a
   * server started again over the same skills answers without loading the tokenizer.
   */
  readonly catalogCache?: CacheStore;
  /**
   * `serveStdio` and `serveHttp` serve each client from a session of its own, in which a skill's
   * `allowed-tools` pre-approvals end when the client activates another skill, when the session
   * ends, or after this many milliseconds without a call (default 15 minutes).
   */
  readonly grantsIdleMs?: number;
  /**
   * Problems outside any request: a watch that cannot start, a change notice that cannot be
   * sent. Without it they are written to standard error; they never stop the server.
   */
  readonly onError?: (error: Error) => void;
}

const DEFAULT_LIMITS: ResourceLimits = { maxListed: 1000, perSkill: 100, depth: 4 };

/** Grants of a client session end after this long without a call. */
export const DEFAULT_GRANTS_IDLE_MS = 15 * 60 * 1000;

const PREAMBLE =
  'This server offers Agent Skills. The catalog below lists them; call skillhost_activate with a ' +
  "skill's name when a task matches its description, read its files with skillhost_read, " +
  'and find unlisted skills with skillhost_search.';

function positive(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new SkillhostError('USAGE', `${option} must be a whole number of 0 or more`);
  return value;
}

/** The name and version a server gives in its `serverInfo`. */
export function serverIdentity(options: McpServerOptions): { name: string; version: string } {
  return { name: options.name ?? 'skillhost', version: options.version ?? 'unknown' };
}

/** The bounds of the resource listings. */
export function resourceLimits(options: McpServerOptions): ResourceLimits {
  return {
    ...DEFAULT_LIMITS,
    ...(options.maxListedResources === undefined ? {} : { maxListed: options.maxListedResources }),
  };
}

/** The budgets of the two catalogs (the tool's never more than the instructions'). */
export function catalogBudgets(options: McpServerOptions): { budget: number; toolBudget: number } {
  const budget = positive(options.budget, DEFAULT_CATALOG_BUDGET, 'budget');
  const toolBudget = Math.min(
    budget,
    positive(options.toolCatalogBudget, DEFAULT_TOOL_CATALOG_BUDGET, 'toolCatalogBudget'),
  );
  return { budget, toolBudget };
}

/** Reports a problem outside any request (see `McpServerOptions.onError`). */
export function reportProblem(options: McpServerOptions, error: unknown): void {
  const problem = error instanceof Error ? error : new Error(String(error));
  if (options.onError !== undefined) options.onError(problem);
  else console.error(`skillhost mcp: ${problem.message}`);
}

/** The server's instructions around a catalog: a preamble, then the catalog. */
export function instructionsOf(catalog: string): string {
  return catalog === '' ? `${PREAMBLE}\n\nNo skill is available.` : `${PREAMBLE}\n\n${catalog}`;
}

/**
 * Builds MCP server instances over one runtime and tells the connected ones when the registry
 * changes. The serving entries of the SDK want a factory (a fresh instance per stdio connection,
 * per HTTP request); each instance answers from the runtime session it is built for, so the
 * policy and the audit trail are the runtime's and the activations and grants are that client's.
 * What does not depend on the client (the catalogs, the tool list, the listings' frontmatter) is
 * rendered once per registry state and shared.
 */
export class SkillServerHub {
  readonly runtime: SkillRuntime;
  readonly #options: McpServerOptions;
  readonly #limits: ResourceLimits;
  readonly #catalogs: CatalogRenderer;
  readonly #listeners = new Set<() => void>();
  /** The listings' frontmatter of the registry state `#frontmatterRevision`, by address. */
  readonly #frontmatter = new Map<string, Skill['frontmatter']>();
  #frontmatterRevision = -1;
  #watch: WatchHandle | undefined;
  #stopListening: (() => void) | undefined;
  #tools:
    | { readonly revision: number; readonly catalog: string; readonly tools: Tool[] }
    | undefined;

  constructor(runtime: SkillRuntime, options: McpServerOptions = {}) {
    this.runtime = runtime;
    this.#options = options;
    this.#limits = resourceLimits(options);
    this.#catalogs = new CatalogRenderer(runtime, {
      ...catalogBudgets(options),
      ...(options.loadCounter === undefined ? {} : { loadCounter: options.loadCounter }),
      ...(options.catalogCache === undefined ? {} : { cache: options.catalogCache, hash: sha256 }),
    });
  }

  /**
   * Renders the catalogs of the current registry state (the tokenizer is loaded only when one
   * of them may be cut, and not even then when the cache has them): call before serving.
   */
  async prepare(): Promise<void> {
    await this.#catalogs.prepare();
  }

  /** The server's instructions: a preamble and the XML catalog, within the budget. */
  instructions(): string {
    return instructionsOf(this.#catalogs.current().instructions);
  }

  /** The catalogs of the current registry state, as served. */
  catalogs(): ServedCatalogs {
    return this.#catalogs.current();
  }

  /**
   * The runtime's tools as MCP lists them, rendered once per registry state: they depend only
   * on the offered skills (the registry), the policy and the runner, and the last two are fixed
   * for the runtime's life. `skillhost_activate`'s description carries a short catalog, for the
   * clients that show the model tool descriptions but not the server's instructions.
   */
  tools(): Tool[] {
    const revision = this.runtime.revision;
    const catalog = this.#catalogs.current().tool;
    // The catalog counted by `prepare` replaces the one estimated for the same state.
    if (this.#tools?.revision !== revision || this.#tools.catalog !== catalog) {
      this.#tools = {
        revision,
        catalog,
        tools: this.runtime.tools().map((tool) => ({
          name: tool.name,
          title: tool.title,
          description:
            tool.name === 'skillhost_activate' && catalog !== ''
              ? `${tool.description}\n\n${catalog}`
              : tool.description,
          // Served as the runtime wrote it (plain JSON data; the SDK types it as JSON values).
          inputSchema: tool.inputSchema as unknown as Tool['inputSchema'],
          annotations: { title: tool.title, ...tool.annotations },
        })),
      };
    }
    return this.#tools.tools;
  }

  /**
   * Opens the runtime session one client is served from: its own activations, grants and audit
   * session; a skill's pre-approvals end when the client activates another skill or has been idle
   * for `grantsIdleMs`.
   */
  openSession(): SkillRuntime {
    return this.runtime.openSession({
      id: randomId(),
      grantsEndOnOtherActivation: true,
      grantsIdleMs: positive(this.#options.grantsIdleMs, DEFAULT_GRANTS_IDLE_MS, 'grantsIdleMs'),
    });
  }

  /**
   * A skill's frontmatter as `skills/list` shows it: parsed from its SKILL.md as a client
   * parsing the served file parses it (so `--verify`-style checks agree), read once per registry
   * state through the runtime; the registry's view when the file cannot be read or parsed so.
   */
  listedFrontmatter(entry: RegistryEntry, resources: SkillResources): Skill['frontmatter'] {
    if (this.#frontmatterRevision !== this.runtime.revision) {
      this.#frontmatter.clear();
      this.#frontmatterRevision = this.runtime.revision;
    }
    const known = this.#frontmatter.get(entry.address);
    if (known !== undefined) return known;
    let value = registryFrontmatter(entry) as Skill['frontmatter'];
    try {
      const [content] = resources.read(skillUri(entry.name, SKILL_FILE)).contents;
      const parsed =
        content !== undefined && 'text' in content ? parsedFrontmatter(content.text) : undefined;
      if (typeof parsed?.name === 'string' && typeof parsed.description === 'string')
        value = parsed as Skill['frontmatter'];
    } catch {
      // The read was refused and recorded by the runtime; the listing shows what it loaded.
    }
    this.#frontmatter.set(entry.address, value);
    return value;
  }

  /** A fresh server instance, wired to a runtime session (not yet connected). */
  build(session: SkillRuntime = this.runtime): McpServer {
    return buildInstance({
      ...serverIdentity(this.#options),
      instructions: this.instructions(),
      limits: this.#limits,
      session: () => session,
      tools: () => this.tools(),
      frontmatter: (entry, resources) => this.listedFrontmatter(entry, resources),
    });
  }

  /** Calls `listener` after every registry change the watch reports; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts watching the sources (once); a change is announced once its catalogs are rendered.
   * Every skill file is checked first, before the watcher is even loaded: what changed while no
   * server ran (the CLI's server opens from the index as it was saved, checking no file) is
   * announced like any change, before the next request is read. What changes while the watcher
   * starts, it reports once it is ready.
   */
  async watch(): Promise<void> {
    if (this.#stopListening !== undefined) return;
    this.#stopListening = this.runtime.onChange(() => {
      this.prepare()
        .catch((error: unknown) => this.report(error))
        .finally(() => {
          for (const listener of this.#listeners) listener();
        });
    });
    this.runtime.refresh();
    const watcher = this.#options.watcher ?? (await createChokidarWatcher());
    if (this.#stopListening === undefined) return; // closed meanwhile
    this.#watch = this.runtime.watch(watcher);
  }

  /** Reports a problem outside any request (see `McpServerOptions.onError`). */
  report(error: unknown): void {
    reportProblem(this.#options, error);
  }

  /** Stops watching. The runtime stays open: its owner closes it. */
  async close(): Promise<void> {
    const handle = this.#watch;
    this.#watch = undefined;
    this.#stopListening?.();
    this.#stopListening = undefined;
    this.#listeners.clear();
    await handle?.close();
  }
}

/** Sends the three list-changed notifications on a connected instance. */
export function announceChanges(mcp: McpServer, onError: (error: unknown) => void): void {
  if (!mcp.isConnected()) return;
  const server = mcp.server;
  for (const send of [
    () => server.sendToolListChanged(),
    () => server.sendPromptListChanged(),
    () => server.sendResourceListChanged(),
  ]) {
    send().catch(onError);
  }
}

/**
 * An MCP server over a skillhost runtime: its tools (`tools/list` serves the runtime's JSON
 * Schemas as they are; `tools/call` goes to `runtime.callTool`), each offered skill's files as
 * `skill://NAME/PATH` resources, each skill as a prompt (a user activation), the catalog in the
 * instructions, and the MCP skills extension. It serves the runtime it is given, as it is (its
 * session, its grants); connect it to a transport yourself, or use `serveStdio` / `serveHttp`,
 * which give each client a session of its own. The catalogs are estimated (use the serving
 * entries for exact counting). With `watch`, clients hear of registry changes until it closes.
 */
export function createMcpServer(runtime: SkillRuntime, options: McpServerOptions = {}): McpServer {
  const hub = new SkillServerHub(runtime, options);
  const mcp = hub.build();
  if (options.watch === true) {
    const report = (error: unknown) => hub.report(error);
    hub.onChange(() => announceChanges(mcp, report));
    const previous = mcp.server.onclose;
    mcp.server.onclose = () => {
      previous?.();
      hub.close().catch(report);
    };
    // A watch that cannot start leaves a working server that only misses change notices.
    hub.watch().catch(report);
  }
  return mcp;
}
