// Benchmark: a cold `skillhost validate TREE` against an I/O floor (list the tree and read every
// SKILL.md, parse nothing), alternating in one run. Prints medians, the ratio and peak memory.
// Usage: npm run bench -- [--sizes 100,1000,10000] [--rounds 7]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './generate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
};
const sizes = option('sizes', '100,1000,10000').split(',').map(Number);
const rounds = Number(option('rounds', '7'));
const cache = resolve(root, option('cache', '.bench-cache'));
const bin = join(root, 'dist', 'cli', 'bin.js');
const preload = join(here, 'rss.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-'));

function run(argv) {
  const rssFile = join(scratch, 'rss');
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', preload, ...argv], {
    env: { ...process.env, SKILLHOST_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) {
    throw new Error(
      `${argv.join(' ')} exited ${result.status}: ${result.stderr}${result.stdout.slice(-2000)}`,
    );
  }
  const rssKiB = Number(readFileSync(rssFile, 'utf8'));
  return { seconds, rssMiB: rssKiB / 1024 };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const rows = [];
for (const size of sizes) {
  const tree = generateTree(cache, size);
  const floorArgs = [join(here, 'floor.mjs'), tree];
  const validateArgs = [bin, 'validate', tree];
  run(floorArgs);
  run(validateArgs);
  const floor = [];
  const ours = [];
  for (let round = 0; round < rounds; round += 1) {
    floor.push(run(floorArgs));
    ours.push(run(validateArgs));
  }
  const floorSeconds = median(floor.map((sample) => sample.seconds));
  const oursSeconds = median(ours.map((sample) => sample.seconds));
  const floorRss = Math.max(...floor.map((sample) => sample.rssMiB));
  const oursRss = Math.max(...ours.map((sample) => sample.rssMiB));
  rows.push({ size, floorSeconds, oursSeconds, floorRss, oursRss });
}
rmSync(scratch, { recursive: true, force: true });

console.log(
  `skillhost validate vs I/O floor (node ${process.version}, ${rounds} rounds, medians, cold processes)`,
);
console.log(
  '| skills | floor s | validate s | ratio | floor peak MiB | validate peak MiB | memory ratio |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.size} | ${row.floorSeconds.toFixed(3)} | ${row.oursSeconds.toFixed(3)} | ${(row.oursSeconds / row.floorSeconds).toFixed(2)}x | ${row.floorRss.toFixed(1)} | ${row.oursRss.toFixed(1)} | ${(row.oursRss / row.floorRss).toFixed(2)}x |`,
  );
}
