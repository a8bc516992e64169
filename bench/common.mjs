// Helpers every benchmark shares: command-line options, the median, and a measured run of a
// cold process (wall time and peak memory, reported by the rss.mjs preload).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The value after `--NAME` on the command line, or the fallback. */
export function option(name, fallback) {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs `node ARGV...` in a fresh process and returns its wall time in seconds and its peak
 * resident memory in MiB. `scratch` holds the memory report; `env` adds to this environment.
 * With `stdout` 'ignore' the output goes to /dev/null instead of a pipe held in memory here.
 */
export function measuredRun(argv, scratch, env = {}, stdout = 'pipe') {
  const rssFile = join(scratch, 'rss');
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', join(here, 'rss.mjs'), ...argv], {
    env: { ...process.env, SKILLHOST_BENCH_RSS_FILE: rssFile, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    stdio: ['ignore', stdout, 'pipe'],
    maxBuffer: 512 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    throw new Error(
      `${argv.join(' ')} exited ${result.status}: ${result.stderr}${(result.stdout ?? '').slice(-2000)}`,
    );
  }
  return { seconds, rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024 };
}
