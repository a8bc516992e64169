import type { DirectoryWatcher } from '../deps.js';

/**
 * A directory watcher on chokidar, loaded on first use: it watches only the given roots, to a
 * bounded depth, ignoring .git and node_modules, and never follows links unless asked.
 */
export async function createChokidarWatcher(): Promise<DirectoryWatcher> {
  const { watch } = await import('chokidar');
  return (roots, onChange, options) => {
    const watcher = watch([...roots], {
      ignoreInitial: true,
      depth: options.depth,
      followSymlinks: options.followSymlinks,
      ignored: (path: string) => /(^|\/)(\.git|node_modules)(\/|$)/.test(path),
    });
    watcher.on('all', (_event: string, path: string) => onChange(path));
    // What changed between the caller's last look and the end of chokidar's first scan is in
    // no event: its readiness counts as a change, so the caller looks once more.
    const [first] = roots;
    if (first !== undefined) watcher.once('ready', () => onChange(first));
    watcher.on('error', () => {
      // Events may have been lost: a root as the changed path makes the caller check everything.
      if (first !== undefined) onChange(first);
    });
    return { close: () => watcher.close() };
  };
}
