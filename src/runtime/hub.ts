import type { DirectoryWatcher, WatchHandle } from '../deps.js';
import type { RegistryChanges, SkillRegistry } from '../registry/registry.js';
import type { ToolDefinition } from './tools.js';

/**
 * What every session of one runtime shares: the registry, its change listeners and revision, the
 * watch, and the tool definitions (they depend only on the registry and the host's settings).
 * Sessions own the rest: activations, grants, the audit session, the call queue.
 */
export class RegistryHub {
  readonly registry: SkillRegistry;
  readonly #listeners = new Set<(changes: RegistryChanges) => void>();
  #watch: WatchHandle | undefined;
  #revision = 0;
  #tools: { readonly revision: number; readonly tools: ToolDefinition[] } | undefined;

  constructor(registry: SkillRegistry) {
    this.registry = registry;
  }

  get revision(): number {
    return this.#revision;
  }

  /** The tool definitions for this revision, made by `make` once per revision. */
  tools(make: () => ToolDefinition[]): ToolDefinition[] {
    if (this.#tools?.revision !== this.#revision)
      this.#tools = { revision: this.#revision, tools: make() };
    return this.#tools.tools;
  }

  refresh(): RegistryChanges {
    const changes = this.registry.refresh();
    this.#announce(changes);
    return changes;
  }

  #announce(changes: RegistryChanges): void {
    if (changes.added.length + changes.removed.length + changes.changed.length === 0) return;
    this.#revision += 1;
    for (const listener of this.#listeners) listener(changes);
  }

  watch(watcher: DirectoryWatcher, options: { readonly debounceMs?: number } = {}): WatchHandle {
    if (this.#watch !== undefined) return this.#watch;
    const handle = this.registry.watch(watcher, (changes) => this.#announce(changes), options);
    this.#watch = {
      close: async () => {
        this.#watch = undefined;
        await handle.close();
      },
    };
    return this.#watch;
  }

  onChange(listener: (changes: RegistryChanges) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Stops watching and forgets the listeners (the runtime that opened the registry closes). */
  async close(): Promise<void> {
    this.#listeners.clear();
    await this.#watch?.close();
  }
}
