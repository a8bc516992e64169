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

/** More changed paths than this in one burst: checking everything is as quick. */
const MOST_PATHS = 512;

/**
 * Watches the roots of the sources that exist, and after file events settle for `debounceMs`
 * calls `refresh` with the paths of the burst (which narrow what it checks), then `listener`
 * when something was added, changed or removed.
 */
export function watchSources(
  fs: SkillFileSystem,
  sources: readonly SkillSource[],
  discovery: DiscoveryOptions,
  watcher: DirectoryWatcher,
  refresh: (changed?: readonly string[]) => RegistryChanges,
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
  // The paths of the burst, or undefined once there are too many to be worth naming.
  let paths: Set<string> | undefined = new Set();
  const settle = () => {
    timer = undefined;
    if (closed) return;
    const changed = paths === undefined ? undefined : [...paths];
    paths = new Set();
    const changes = refresh(changed);
    if (changes.added.length + changes.removed.length + changes.changed.length > 0)
      listener(changes);
  };
  const handle = watcher(
    roots,
    (path) => {
      if (closed) return;
      if (paths !== undefined) {
        paths.add(path);
        if (paths.size > MOST_PATHS) paths = undefined;
      }
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
