import { fnv1a } from '../../internal.js';
import type { CacheStore } from '../../node/index.js';
import type { ServedCatalogs } from './catalogs.js';
import { catalogBudgets, type McpServerOptions, serverIdentity } from './server.js';

/**
 * Where a stdio server keeps what it served (its instructions and the tool's catalog), so that,
 * started again, it answers `initialize` from it before the runtime is open.
 */
export interface StartState {
  readonly cache: CacheStore;
  /**
   * What the served catalogs depend on besides the options' budgets and identity: the sources,
   * the skills switched off, the folders left out, as the caller describes them. A state saved
   * under another key (or other budgets) is never read.
   */
  readonly key: string;
}

/** What the last run served. */
export interface SavedStart {
  readonly instructions: string;
  /** The catalog in `skillhost_activate`'s description. */
  readonly tool: string;
}

const FORMAT = 'skillhost-mcp-start-1';

/** The entry of one configuration: its name in the cache and the whole key it is saved under. */
export function startEntry(
  state: StartState,
  options: McpServerOptions,
): { readonly name: string; readonly key: string } {
  const key = JSON.stringify([FORMAT, serverIdentity(options), catalogBudgets(options), state.key]);
  return { name: `mcp-start-${fnv1a(key)}`, key };
}

/**
 * The state saved under this entry: undefined when there is none, a reason when there is one
 * that cannot be used (damaged, another format, saved under another key).
 */
export function loadStart(
  cache: CacheStore,
  entry: { readonly name: string; readonly key: string },
): SavedStart | { readonly unusable: string } | undefined {
  let text: string | undefined;
  try {
    text = cache.load(entry.name);
  } catch (error) {
    return { unusable: error instanceof Error ? error.message : String(error) };
  }
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { unusable: 'it is not JSON' };
  }
  const saved = parsed as { key?: unknown; instructions?: unknown; tool?: unknown };
  if (typeof parsed !== 'object' || parsed === null || saved.key !== entry.key)
    return { unusable: 'it was saved by another version or for other settings' };
  if (typeof saved.instructions !== 'string' || saved.instructions === '')
    return { unusable: 'it holds no instructions' };
  if (typeof saved.tool !== 'string') return { unusable: 'it holds no tool catalog' };
  return { instructions: saved.instructions, tool: saved.tool };
}

/** Saves what is served now; a cache that cannot be written only makes the next start slower. */
export function saveStart(
  cache: CacheStore,
  entry: { readonly name: string; readonly key: string },
  served: SavedStart,
): void {
  try {
    cache.save(
      entry.name,
      JSON.stringify({ key: entry.key, instructions: served.instructions, tool: served.tool }),
    );
  } catch {
    // Nothing is lost: the next start opens the runtime before answering.
  }
}

/** Whether the saved state is what the catalogs now serve. */
export function sameStart(saved: SavedStart, instructions: string, catalogs: ServedCatalogs) {
  return saved.instructions === instructions && saved.tool === catalogs.tool;
}
