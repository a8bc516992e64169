import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as yaml from 'yaml';
import { loadTokenCounter, renderCatalog } from '../dist/index.js';
import { SkillRegistry } from '../dist/internal.js';
import { createNodeFileSystem, sha256 } from '../dist/node/index.js';
import { measuredRun, median, option } from './common.mjs';
import { generateTree } from './generate.mjs';

const run = (argv) => measuredRun(argv, scratch, { SKILLHOST_HOME: join(scratch, 'home') });

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const sizes = option('sizes', '1000,10000').split(',').map(Number);
const rounds = Number(option('rounds', '7'));
const cache = resolve(root, option('cache', '.bench-cache'));
const bin = join(root, 'dist', 'cli', 'bin.js');
const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-'));

console.log(
  `skillhost registry benchmarks (node ${process.version}, ${rounds} rounds, medians, cold processes)`,
);
console.log(
  '| skills | floor s | list cold s | ratio | list warm s | ratio | floor MiB | cold MiB | warm MiB | memory ratio (cold) |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const size of sizes) {
  const tree = generateTree(cache, size);
  const cacheDir = join(scratch, `cache-${size}`);
  const floorArgs = [join(here, 'floor.mjs'), tree];
  const common = [bin, 'list', '--json', '--no-default-sources', '--skills', tree];
  const coldArgs = [...common, '--no-cache'];
  const warmArgs = [...common, '--cache-dir', cacheDir];
  run(floorArgs);
  run(coldArgs);
  run(warmArgs);
  const samples = { floor: [], cold: [], warm: [] };
  for (let round = 0; round < rounds; round += 1) {
    samples.floor.push(run(floorArgs));
    samples.cold.push(run(coldArgs));
    samples.warm.push(run(warmArgs));
  }
  const seconds = (name) => median(samples[name].map((sample) => sample.seconds));
  const memory = (name) => Math.max(...samples[name].map((sample) => sample.rssMiB));
  const floor = seconds('floor');
  console.log(
    `| ${size} | ${floor.toFixed(3)} | ${seconds('cold').toFixed(3)} | ${(seconds('cold') / floor).toFixed(2)}x | ${seconds('warm').toFixed(3)} | ${(seconds('warm') / floor).toFixed(2)}x | ${memory('floor').toFixed(1)} | ${memory('cold').toFixed(1)} | ${(memory('cold') / memory('floor')).toFixed(2)}x | ${memory('warm').toFixed(1)} | ${(memory('warm') / memory('floor')).toFixed(2)}x |`,
  );
}

// In-process: refresh after one change, and the catalog under a budget, at the largest size.
const largest = Math.max(...sizes);
const tree = generateTree(cache, largest);
const fs = createNodeFileSystem();
const registry = SkillRegistry.open({
  fs,
  hash: sha256,
  yaml,
  sources: [{ id: 'bench', kind: 'explicit', root: tree, trust: 'trusted', enabled: true }],
  discovery: { maxDirectories: 1_000_000 },
});
const victim = registry.active()[Math.floor(largest / 2)];
const original = readFileSync(victim.skillFile, 'utf8');
const refreshTimes = [];
for (let round = 0; round < rounds; round += 1) {
  writeFileSync(
    victim.skillFile,
    original.replace('description: ', `description: Round ${round}. `),
  );
  const started = performance.now();
  const changes = registry.refresh();
  refreshTimes.push(performance.now() - started);
  if (changes.changed.length !== 1)
    throw new Error(`refresh saw ${changes.changed.length} changes`);
}
writeFileSync(victim.skillFile, original);
const countTokens = await loadTokenCounter();
const skills = registry
  .active()
  .map((entry) => ({ name: entry.name, description: entry.metadata.description, trusted: true }));
const catalogTimes = [];
let catalogTokens = 0;
for (let round = 0; round < rounds; round += 1) {
  const started = performance.now();
  const result = renderCatalog(skills, { budget: 8000, countTokens });
  catalogTimes.push(performance.now() - started);
  catalogTokens = result.tokens;
}
console.log('');
console.log(
  `In process, ${largest} skills: refresh after one changed file ${median(refreshTimes).toFixed(1)} ms (median); catalog under an 8,000-token budget ${median(catalogTimes).toFixed(1)} ms (median, ${catalogTokens} tokens, tokenizer already loaded)`,
);

// A catalog under a budget costs what list costs when the budget holds everything: the
// tokenizer is loaded only when the estimate cannot show that the catalog fits.
{
  const small = generateTree(cache, 100);
  const sources = ['--no-default-sources', '--skills', small, '--no-cache'];
  const listArgs = [bin, 'list', ...sources];
  const catalogArgs = [bin, 'catalog', '--budget', '8000', ...sources];
  run(listArgs);
  run(catalogArgs);
  const times = { list: [], catalog: [] };
  for (let round = 0; round < rounds; round += 1) {
    times.list.push(run(listArgs).seconds);
    times.catalog.push(run(catalogArgs).seconds);
  }
  console.log(
    `Cold processes, 100 skills: list ${median(times.list).toFixed(3)} s, catalog --budget 8000 ${median(times.catalog).toFixed(3)} s (${(median(times.catalog) / median(times.list)).toFixed(2)}x of list)`,
  );
}

// The real corpus, loaded leniently through the registry.
const corpus = resolve(option('corpus', join(root, '..', 'shared', 'conformance', 'corpus')));
if (existsSync(corpus)) {
  const started = performance.now();
  const corpusRegistry = SkillRegistry.open({
    fs,
    hash: sha256,
    yaml,
    sources: [{ id: 'corpus', kind: 'explicit', root: corpus, trust: 'trusted', enabled: true }],
    discovery: { maxDirectories: 1_000_000, maxDepth: 8 },
  });
  const elapsed = performance.now() - started;
  const byStatus = {};
  const skipped = {};
  for (const entry of corpusRegistry.entries) {
    byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
    if (entry.status === 'skipped') {
      const code = entry.diagnostics.find((d) => d.severity === 'error')?.code ?? 'UNKNOWN';
      skipped[code] = (skipped[code] ?? 0) + 1;
    }
  }
  const usable = corpusRegistry.entries.length - (byStatus.skipped ?? 0);
  console.log(
    `Real corpus (${corpusRegistry.entries.length} skills): ${usable} load (${byStatus.active ?? 0} active, ${byStatus.shadowed ?? 0} shadowed by a same-name skill), ${byStatus.skipped ?? 0} skipped (${Object.entries(
      skipped,
    )
      .sort((a, b) => b[1] - a[1])
      .map(([code, count]) => `${code} ${count}`)
      .join(', ')}), in ${elapsed.toFixed(0)} ms`,
  );
}
rmSync(scratch, { recursive: true, force: true });
