// Helpers every benchmark shares: command-line options, the median, and a measured run of a
// cold process (wall time; peak memory and CPU time, reported by the rss.mjs preload).
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
 * The environment every measured process gets: this one, less what makes Node do start-up work
 * that is neither the command's nor the floor's (NODE_EXTRA_CA_CERTS: a certificate bundle
 * parsed at every start, 50-100 ms on some machines, which would hide a command's own cost
 * behind a constant both sides pay), plus `extra`.
 */
export function benchEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

function spawnNode(argv, env, stdout) {
  const result = spawnSync(process.execPath, argv, {
    env,
    encoding: 'utf8',
    stdio: ['ignore', stdout, 'pipe'],
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `${argv.join(' ')} exited ${result.status}: ${result.stderr}${(result.stdout ?? '').slice(-2000)}`,
    );
  }
}

/**
 * Runs `node ARGV...` in a fresh process and returns its wall time in seconds, nothing preloaded.
 * `env` adds to the environment (see `benchEnv`). With `stdout` 'ignore' the output goes to
 * /dev/null instead of a pipe held in memory here.
 */
export function timedRun(argv, env = {}, stdout = 'pipe') {
  const started = performance.now();
  spawnNode(argv, benchEnv(env), stdout);
  return (performance.now() - started) / 1000;
}

/**
 * Runs `node ARGV...` in a fresh process with a preload that reports its peak resident memory in
 * MiB and the CPU time of all its threads in seconds (`scratch` holds the report): `{ rssMiB,
 * cpuSeconds }`. Kept apart from the timed runs: a preload starts Node's module loader for ES
 * modules, which a CommonJS command would not otherwise load.
 */
export function usageRun(argv, scratch, env = {}, stdout = 'pipe') {
  const reportFile = join(scratch, 'rss');
  spawnNode(
    ['--import', join(here, 'rss.mjs'), ...argv],
    benchEnv({ ...env, SKILLHOST_BENCH_RSS_FILE: reportFile }),
    stdout,
  );
  const [rssKiB, cpuMicroseconds] = readFileSync(reportFile, 'utf8').trim().split(' ').map(Number);
  return { rssMiB: rssKiB / 1024, cpuSeconds: cpuMicroseconds / 1e6 };
}

/** The peak resident memory of `node ARGV...` in MiB (see `usageRun`). */
export function memoryRun(argv, scratch, env = {}, stdout = 'pipe') {
  return usageRun(argv, scratch, env, stdout).rssMiB;
}

/** A timed run, then a run for the peak memory: `{ seconds, rssMiB }`. */
export function measuredRun(argv, scratch, env = {}, stdout = 'pipe') {
  return { seconds: timedRun(argv, env, stdout), rssMiB: memoryRun(argv, scratch, env, stdout) };
}
