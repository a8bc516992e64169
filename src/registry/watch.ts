import type { DirectoryWatcher, SkillFileSystem, WatchHandle } from '../deps.js';
import { WALK_DEFAULTS } from '../skill-files/walker.js';
import type { DiscoveryOptions } from './discover.js';
import type { RegistryChanges } from './refresh.js';
import type { SkillSource } from './sources.js';

export interface RegistryWatchOptions {
  /** Quiet time after the last file event before refreshing (default 100 ms). */
  readonly debounceMs?: number;
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
  readonly clearTimer?: (timer: unknown) => void;
}

/**
 * Watches the roots of the sources that exist, and after file events settle for `debounceMs`
 * calls `refresh`, then `listener` when something was added, changed or removed.
 */
export function watchSources(
  fs: SkillFileSystem,
  sources: readonly SkillSource[],
  discovery: DiscoveryOptions,
  watcher: DirectoryWatcher,
  refresh: () => RegistryChanges,
  listener: (changes: RegistryChanges) => void,
  options: RegistryWatchOptions = {},
): WatchHandle {
  const roots = sources
    .map((source) => source.root)
    .filter((root) => fs.status(root, true)?.kind === 'directory');
  const setTimer =
    options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ??
    ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let timer: unknown;
  let closed = false;
  const settle = () => {
    timer = undefined;
    if (closed) return;
    const changes = refresh();
    if (changes.added.length + changes.removed.length + changes.changed.length > 0)
      listener(changes);
  };
  const handle = watcher(
    roots,
    () => {
      if (closed) return;
      if (timer !== undefined) clearTimer(timer);
      timer = setTimer(settle, options.debounceMs ?? 100);
    },
    {
      // One level more than is searched: a new skill file in the deepest searched folder counts.
      depth: (discovery.maxDepth ?? WALK_DEFAULTS.maxDepth) + 1,
      followSymlinks: discovery.followSymlinks ?? WALK_DEFAULTS.followSymlinks,
    },
  );
  return {
    close: async () => {
      closed = true;
      if (timer !== undefined) clearTimer(timer);
      await handle.close();
    },
  };
}
