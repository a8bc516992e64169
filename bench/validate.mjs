import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun, median, option } from './common.mjs';
import { generateTree } from './generate.mjs';

const run = (argv) => measuredRun(argv, scratch);

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const sizes = option('sizes', '100,1000,10000').split(',').map(Number);
const rounds = Number(option('rounds', '7'));
const cache = resolve(root, option('cache', '.bench-cache'));
const bin = join(root, 'dist', 'cli', 'bin.js');
const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-'));

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
