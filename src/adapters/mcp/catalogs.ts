import {
  type CacheStore,
  type CatalogFormat,
  type CatalogResult,
  type ContentHasher,
  loadTokenCounter,
  type SkillRuntime,
  type TokenCounter,
} from '../../node/index.js';

/** The budget of every catalog the server renders, unless told otherwise (tokens). */
export const DEFAULT_CATALOG_BUDGET = 8000;
/**
 * The budget of the catalog in `skillhost_activate`'s description (tokens): clients cut long
 * tool descriptions (Claude Code at 4,096 characters), so it stays well under that.
 */
export const DEFAULT_TOOL_CATALOG_BUDGET = 800;

/**
 * Below this share of its budget, by the estimate, a catalog is not counted exactly: the o200k
 * count of catalog text stays under twice the estimate (names with digits, the worst case seen,
 * run at 1.5 times), so nothing can be cut and the tokenizer (~60 MB, 0.2–0.6 s to load) is not
 * loaded.
 */
const UNCOUNTED_SHARE = 0.5;

export interface CatalogSettings {
  /** Tokens of the instructions' catalog. */
  readonly budget: number;
  /** Tokens of the catalog in `skillhost_activate`'s description; 0 for none. */
  readonly toolBudget: number;
  /** Loads the exact counter, when a catalog may be cut (default: the o200k tokenizer). */
  readonly loadCounter?: () => Promise<TokenCounter>;
  /**
   * Where catalogs counted exactly are kept between runs, keyed by the skills they show, so a
   * server started again over the same skills answers without loading the tokenizer.
   */
  readonly cache?: CacheStore;
  readonly hash?: ContentHasher;
}

/** The catalogs of one registry state, as served. */
export interface ServedCatalogs {
  readonly revision: number;
  /** The instructions' catalog (XML); empty when no skill is offered. */
  readonly instructions: string;
  /** The catalog for `skillhost_activate`'s description (Markdown); empty for none. */
  readonly tool: string;
}

const CACHE_FORMAT = 'skillhost-mcp-catalogs-1';

function uncut(result: CatalogResult, budget: number): boolean {
  return (
    result.counts.full === result.decisions.length && result.tokens <= budget * UNCOUNTED_SHARE
  );
}

/**
 * Renders the server's catalogs within their budgets, counting exactly only what may be cut:
 * a catalog the estimate puts well under its budget is served as estimated; one that may be cut
 * is counted with the tokenizer, or taken from the cache where the same skills were counted
 * before (a warm start answers without the tokenizer).
 */
export class CatalogRenderer {
  readonly #runtime: SkillRuntime;
  readonly #settings: CatalogSettings;
  #counter: TokenCounter | undefined;
  #served: ServedCatalogs | undefined;
  /** Rendered by `current` for a state not prepared yet. */
  #unprepared: ServedCatalogs | undefined;

  constructor(runtime: SkillRuntime, settings: CatalogSettings) {
    this.#runtime = runtime;
    this.#settings = settings;
  }

  /** The catalogs of the current registry state: rendered when asked for the first time. */
  async prepare(): Promise<ServedCatalogs> {
    const revision = this.#runtime.revision;
    if (this.#served?.revision === revision) return this.#served;
    const served = await this.#render(revision);
    this.#served = served;
    return served;
  }

  /**
   * The catalogs as last prepared, or (between a registry change and the next `prepare`)
   * rendered now with what is at hand: the counter if it was loaded, else the estimate.
   */
  current(): ServedCatalogs {
    const revision = this.#runtime.revision;
    if (this.#served?.revision === revision) return this.#served;
    if (this.#unprepared?.revision === revision) return this.#unprepared;
    const instructions = this.#catalog('xml', this.#settings.budget, this.#counter);
    const tool =
      this.#settings.toolBudget > 0
        ? this.#catalog('markdown', this.#settings.toolBudget, this.#counter)
        : undefined;
    this.#unprepared = { revision, instructions: instructions.text, tool: tool?.text ?? '' };
    return this.#unprepared;
  }

  #catalog(format: CatalogFormat, budget: number, countTokens?: TokenCounter): CatalogResult {
    return this.#runtime.catalog({
      format,
      budget,
      searchTool: 'skillhost_search',
      ...(countTokens === undefined ? {} : { countTokens }),
    });
  }

  async #render(revision: number): Promise<ServedCatalogs> {
    const { budget, toolBudget } = this.#settings;
    const wanted: Array<{ format: CatalogFormat; budget: number }> = [{ format: 'xml', budget }];
    if (toolBudget > 0) wanted.push({ format: 'markdown', budget: toolBudget });
    // Counted before, for these very skills: served as counted, with neither estimate nor count.
    const key = this.#cacheKey(wanted);
    const cached = key === undefined ? undefined : this.#load(key.name, key.content);
    let results: string[];
    if (cached !== undefined && cached.length === wanted.length) results = cached;
    else {
      const estimated = wanted.map((want) => this.#catalog(want.format, want.budget));
      results = estimated.map((result) => result.text);
      if (!estimated.every((result, index) => uncut(result, wanted[index]?.budget ?? 0))) {
        const count = await this.#loadCounter();
        results = wanted.map((want) => this.#catalog(want.format, want.budget, count).text);
        if (key !== undefined) this.#save(key.name, key.content, results);
      }
    }
    const [instructions, tool] = results;
    return { revision, instructions: instructions ?? '', tool: tool ?? '' };
  }

  async #loadCounter(): Promise<TokenCounter> {
    if (this.#counter !== undefined) return this.#counter;
    this.#counter = await (this.#settings.loadCounter ?? loadTokenCounter)();
    return this.#counter;
  }

  /**
   * The cache entry's name (one per set of sources and budgets) and the digest of what the
   * catalogs are made of (every offered skill's name, description and trust, as the registry
   * read them from the files): an entry made from other skills is never used.
   */
  #cacheKey(
    wanted: ReadonlyArray<{ format: CatalogFormat; budget: number }>,
  ): { name: string; content: string } | undefined {
    const { cache, hash } = this.#settings;
    if (cache === undefined || hash === undefined) return undefined;
    const encoder = new TextEncoder();
    const shape = JSON.stringify([
      CACHE_FORMAT,
      wanted,
      this.#runtime.sources.map((source) => [source.id, source.root, source.trust, source.enabled]),
    ]);
    const skills = JSON.stringify(
      this.#runtime
        .offered()
        .map((entry) => [entry.name, entry.metadata?.description ?? '', entry.source.trust]),
    );
    return {
      name: `mcp-catalogs-${hash(encoder.encode(shape)).slice(0, 32)}`,
      content: hash(encoder.encode(skills)),
    };
  }

  #load(name: string, content: string): string[] | undefined {
    try {
      const text = this.#settings.cache?.load(name);
      if (text === undefined) return undefined;
      const parsed = JSON.parse(text) as { content?: unknown; catalogs?: unknown };
      if (parsed.content !== content || !Array.isArray(parsed.catalogs)) return undefined;
      const catalogs = parsed.catalogs as unknown[];
      return catalogs.every((item): item is string => typeof item === 'string')
        ? catalogs
        : undefined;
    } catch {
      // A cache that cannot be read is only a slower start.
      return undefined;
    }
  }

  #save(name: string, content: string, catalogs: readonly string[]): void {
    try {
      this.#settings.cache?.save(name, JSON.stringify({ content, catalogs }));
    } catch {
      // Nothing is lost: the next start counts again.
    }
  }
}
