import {
  type CallToolResult,
  type GetPromptResult,
  McpServer,
  type Tool,
} from '@modelcontextprotocol/server';
import {
  createChokidarWatcher,
  type DirectoryWatcher,
  SkillhostError,
  type SkillRuntime,
  type ToolCallResult,
  type WatchHandle,
} from '../../node/index.js';
import { protocolErrorOf } from './errors.js';
import { type ResourceLimits, SkillResources } from './resources.js';
import { skillsExtension } from './skills.js';

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
   * Problems outside any request: a watch that cannot start, a change notice that cannot be
   * sent. Without it they are written to standard error; they never stop the server.
   */
  readonly onError?: (error: Error) => void;
}

const DEFAULT_LIMITS: ResourceLimits = { maxListed: 1000, perSkill: 100, depth: 4 };

const PREAMBLE =
  'This server offers Agent Skills. The catalog below lists them; call skillhost_activate with a ' +
  "skill's name when a task matches its description, read its files with skillhost_read, " +
  'and find unlisted skills with skillhost_search.';

/** The `_meta` key of a tool result's data (the runtime's metadata, for applications). */
export const RESULT_META = 'skillhost/result';

/**
 * A runtime tool result as MCP sends it: the text is the whole result, with no
 * `structuredContent` and no `outputSchema`. Clients that find structured content send the model
 * its JSON instead of the text (Claude Code, Codex), and the MCP specification makes it the
 * result, so anything less than the payload there (the skill body, the file, the script's output)
 * would never reach the model; the payload as JSON would reach it as escaped text. The runtime's
 * metadata (directory, file list, exit code, content hash, error code) is for applications, not
 * the model: it rides in `_meta` under `skillhost/result`, which clients do not show the model.
 */
export function toCallToolResult(result: ToolCallResult): CallToolResult {
  const data =
    result.data === undefined && result.code === undefined
      ? undefined
      : { ...result.data, ...(result.code === undefined ? {} : { code: result.code }) };
  return {
    content: [{ type: 'text', text: result.text }],
    ...(data === undefined ? {} : { _meta: { [RESULT_META]: data } }),
    isError: result.isError,
  };
}

/**
 * Builds MCP server instances over one runtime and tells the connected ones when the registry
 * changes. The serving entries of the SDK want a factory (a fresh instance per stdio connection,
 * per HTTP request); every instance answers from the same runtime, so the policy, the audit
 * trail and the session (activations, grants) are the runtime's, whatever the transport.
 */
export class SkillServerHub {
  readonly runtime: SkillRuntime;
  readonly #options: McpServerOptions;
  readonly #resources: SkillResources;
  readonly #extension: ReturnType<typeof skillsExtension>;
  readonly #listeners = new Set<() => void>();
  #watch: WatchHandle | undefined;
  #stopListening: (() => void) | undefined;
  #instructions: { readonly revision: number; readonly text: string } | undefined;
  #tools: { readonly revision: number; readonly tools: Tool[] } | undefined;

  constructor(runtime: SkillRuntime, options: McpServerOptions = {}) {
    this.runtime = runtime;
    this.#options = options;
    this.#resources = new SkillResources(runtime, {
      ...DEFAULT_LIMITS,
      ...(options.maxListedResources === undefined
        ? {}
        : { maxListed: options.maxListedResources }),
    });
    this.#extension = skillsExtension(this.#resources, () => runtime.offered());
  }

  /** The server's instructions: a preamble and the XML catalog, rendered once per registry state. */
  instructions(): string {
    const revision = this.runtime.revision;
    if (this.#instructions?.revision !== revision) {
      const catalog = this.runtime.catalog({ format: 'xml' }).text;
      this.#instructions = {
        revision,
        text:
          catalog === '' ? `${PREAMBLE}\n\nNo skill is available.` : `${PREAMBLE}\n\n${catalog}`,
      };
    }
    return this.#instructions.text;
  }

  /**
   * The runtime's tools as MCP lists them, rendered once per registry state: they depend only
   * on the offered skills (the registry), the policy and the runner, and the last two are fixed
   * for the runtime's life. Rendering takes the whole catalog (milliseconds at 1,000 skills).
   */
  tools(): Tool[] {
    const revision = this.runtime.revision;
    if (this.#tools?.revision !== revision) {
      this.#tools = {
        revision,
        tools: this.runtime.tools().map((tool) => ({
          name: tool.name,
          title: tool.title,
          description: tool.description,
          // Served as the runtime wrote it (plain JSON data; the SDK types it as JSON values).
          inputSchema: tool.inputSchema as unknown as Tool['inputSchema'],
          annotations: { title: tool.title, ...tool.annotations },
        })),
      };
    }
    return this.#tools.tools;
  }

  /** A fresh server instance, wired to the runtime (not yet connected). */
  build(): McpServer {
    const mcp = new McpServer(
      { name: this.#options.name ?? 'skillhost', version: this.#options.version ?? 'unknown' },
      { instructions: this.instructions() },
    );
    const server = mcp.server;
    // The skills extension registers the skill:// resource template (and so the SDK's resource
    // handlers) and the skills methods; it must come before the handlers set below.
    this.#extension.attach(mcp);
    server.registerCapabilities({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    server.setRequestHandler('tools/list', () => ({ tools: this.tools() }));
    server.setRequestHandler('tools/call', async (request) => {
      const result = await this.runtime.callTool(
        request.params.name,
        request.params.arguments ?? {},
      );
      return server.projectCallToolResult(toCallToolResult(result), undefined);
    });
    server.setRequestHandler('prompts/list', () => ({
      prompts: this.runtime.offered().map((entry) => ({
        name: entry.name,
        description: entry.metadata?.description ?? '',
      })),
    }));
    server.setRequestHandler('prompts/get', (request) => this.#prompt(request.params.name));
    // Replaces the SDK's resources/read, which normalises the URI (folding `..` and `%2e%2e`
    // away) before a handler sees it: escape attempts are refused as sent, not repaired.
    server.setRequestHandler('resources/read', (request) =>
      this.#resources.read(request.params.uri),
    );
    return mcp;
  }

  /**
   * A skill as a prompt: the user's explicit activation. The body is always sent in full (the
   * server cannot know whether this conversation has seen it), and the activation is recorded.
   */
  #prompt(name: string): GetPromptResult {
    const entry = this.#resources.offered(name);
    try {
      if (entry === undefined) {
        const shown = String(name).slice(0, 200);
        const refusal = new SkillhostError(
          'SKILL_NOT_FOUND',
          `No skill named ${JSON.stringify(shown)} is offered`,
        );
        // The runtime never sees this request; it records the refusal as it records its own.
        this.runtime.recordRefusal({
          event: 'skill-activate',
          skill: shown,
          triggeredBy: 'user',
          error: refusal,
        });
        throw refusal;
      }
      const activation = this.runtime.activate(entry.name, { triggeredBy: 'user', resend: true });
      return {
        description: entry.metadata?.description ?? '',
        messages: [{ role: 'user', content: { type: 'text', text: activation.text } }],
      };
    } catch (error) {
      throw protocolErrorOf(error);
    }
  }

  /** Calls `listener` after every registry change the watch reports; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts watching the sources (once). */
  async watch(): Promise<void> {
    if (this.#watch !== undefined) return;
    const watcher = this.#options.watcher ?? (await createChokidarWatcher());
    this.#stopListening = this.runtime.onChange(() => {
      for (const listener of this.#listeners) listener();
    });
    this.#watch = this.runtime.watch(watcher);
  }

  /** Reports a problem outside any request (see `McpServerOptions.onError`). */
  report(error: unknown): void {
    const problem = error instanceof Error ? error : new Error(String(error));
    if (this.#options.onError !== undefined) this.#options.onError(problem);
    else console.error(`skillhost mcp: ${problem.message}`);
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
 * instructions, and the MCP skills extension. Connect it to a transport yourself, or use
 * `serveStdio` / `serveHttp`. With `watch`, clients hear of registry changes until it closes.
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
