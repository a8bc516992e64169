// `npm run bench`: skillhost against the I/O floor at scale. The floor (floor-io.mjs: list the
// folder, read each SKILL.md, parse nothing) and the older, whole-tree floor (floor.mjs) run in
// the same rounds as the commands, alternating, each in a cold process; the tables print medians
// and the ratio to floor-io. Two generated trees: the plain one and a rich one with the optional
// fields real skills use. Then start-up over `node -e 0`, spawn to the MCP `initialize` answer
// against the SDK's minimal server, `catalog --budget` against `list`, reading ahead against one
// thread, and `refresh()`.
// Timed runs preload nothing; peak memory and the CPU time of all threads are measured in runs of
// their own. Every process gets the same environment, less what only adds start-up work to both
// sides (common.mjs: benchEnv).
//
// Usage: npm run bench -- [--sizes 1000,10000,50000] [--trees plain,rich] [--rounds 5]
//        [--quick] [--cache DIR] [--floor-io PATH] [--no-mcp]
//        [--only scale,start,mcp,catalog,threads,refresh]
// --only runs the named parts alone (default: all of them).
// --quick (or SKILLHOST_BENCH_QUICK=1) is 1,000 and 10,000 skills, 3 rounds. Trees are generated
// once into DIR (default: skillhost-bench-cache in the system's temporary folder) and reused.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option, timedRun, usageRun } from './common.mjs';
import { generateTree } from './generate.mjs';
import { initializeTime } from './mcp-start.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick') || process.env.SKILLHOST_BENCH_QUICK === '1';
const sizes = option(
  'sizes',
  process.env.SKILLHOST_BENCH_SIZES ?? (quick ? '1000,10000' : '1000,10000,50000'),
)
  .split(',')
  .map(Number);
const trees = option('trees', 'plain,rich').split(',');
const rounds = Number(option('rounds', quick ? '3' : '5'));
// Peak memory and CPU time move little from run to run: fewer runs measure them.
const usageRounds = Math.min(rounds, 3);
const only = new Set(option('only', 'scale,start,mcp,catalog,threads,refresh').split(','));
const cache = resolve(option('cache', join(tmpdir(), 'skillhost-bench-cache')));
const floorIo = resolve(option('floor-io', join(root, '..', 'shared', 'bench', 'floor-io.mjs')));
const bin = join(root, 'dist', 'cli', 'bin.js');
const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-'));
const home = join(scratch, 'home');
if (!existsSync(floorIo)) throw new Error(`no I/O floor at ${floorIo} (give --floor-io PATH)`);

const time = (argv) => timedRun(argv, { SKILLHOST_HOME: home }, 'ignore');
const usage = (argv) => usageRun(argv, scratch, { SKILLHOST_HOME: home }, 'ignore');
const ms = (seconds) => Math.round(seconds * 1000).toLocaleString('en-US');
const ratio = (value, floor) => `${(value / floor).toFixed(2)}×`;

console.log(
  `skillhost at scale (node ${process.version}, ${rounds} rounds, medians of cold processes; load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at start)`,
);
if (process.env.NODE_EXTRA_CA_CERTS !== undefined)
  console.log('NODE_EXTRA_CA_CERTS is unset in every measured process (see benchEnv).');

for (const kind of only.has('scale') ? trees : []) {
  console.log('');
  console.log(`### ${kind} tree`);
  console.log('');
  console.log(
    '| skills | measure | ms | floor-io ms | ratio | old floor ms | peak MiB | floor-io MiB | memory ratio | CPU ms | floor-io CPU ms | CPU ratio |',
  );
  console.log(
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const size of sizes) {
    const tree = generateTree(cache, size, kind);
    const sources = ['--no-default-sources', '--skills', tree];
    const cacheDir = join(scratch, `index-${kind}-${size}`);
    const measures = [
      ['floor-io', [floorIo, tree]],
      ['old floor', [join(here, 'floor.mjs'), tree]],
      ['validate --json', [bin, 'validate', '--json', tree]],
      ['to-prompt', [bin, 'to-prompt', tree]],
      ['list (cold, no index)', [bin, 'list', '--json', ...sources, '--no-cache']],
      ['list (warm index)', [bin, 'list', '--json', ...sources, '--cache-dir', cacheDir]],
      ['catalog (cold)', [bin, 'catalog', ...sources, '--no-cache']],
    ];
    for (const [, argv] of measures) time(argv);
    const samples = new Map(measures.map(([label]) => [label, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const [label, argv] of measures) samples.get(label).push(time(argv));
    }
    // Peak memory and CPU time in runs of their own (the preload would add to a timed run's
    // start). CPU time is every thread's: on a machine of few cores it bounds the wall time.
    const peaks = new Map(measures.map(([label]) => [label, []]));
    const cpu = new Map(measures.map(([label]) => [label, []]));
    for (let round = 0; round < usageRounds; round += 1) {
      for (const [label, argv] of measures) {
        const used = usage(argv);
        peaks.get(label).push(used.rssMiB);
        cpu.get(label).push(used.cpuSeconds);
      }
    }
    const seconds = (label) => median(samples.get(label));
    const peak = (label) => median(peaks.get(label));
    const cpuSeconds = (label) => median(cpu.get(label));
    const floor = seconds('floor-io');
    const floorMemory = peak('floor-io');
    const floorCpu = cpuSeconds('floor-io');
    for (const [label] of measures.slice(2)) {
      console.log(
        `| ${size.toLocaleString('en-US')} | ${label} | ${ms(seconds(label))} | ${ms(floor)} | ${ratio(seconds(label), floor)} | ${ms(seconds('old floor'))} | ${peak(label).toFixed(1)} | ${floorMemory.toFixed(1)} | ${ratio(peak(label), floorMemory)} | ${ms(cpuSeconds(label))} | ${ms(floorCpu)} | ${ratio(cpuSeconds(label), floorCpu)} |`,
      );
    }
  }
}

// Start-up: the cost of a command over a bare `node -e 0`, many short runs.
if (only.has('start')) {
  const one = generateTree(cache, 1, 'plain');
  const startRounds = rounds * 12;
  const startups = [
    ['node -e 0', ['-e', '0']],
    ['skillhost --version', [bin, '--version']],
    ['skillhost validate (1 skill)', [bin, 'validate', one]],
  ];
  // Round robin, one run of each command a round (the first round warms up): a machine that
  // slows down or speeds up meanwhile moves every command alike, and the cost over `node -e 0`
  // is the median of each round's difference.
  const times = new Map(startups.map(([label]) => [label, []]));
  for (let round = 0; round <= startRounds; round += 1) {
    for (const [label, argv] of startups) {
      const took = time(argv) * 1000;
      if (round > 0) times.get(label).push(took);
    }
  }
  const bare = times.get('node -e 0');
  console.log('');
  console.log(`### Start-up (medians of ${startRounds} rounds, the commands taking turns)`);
  console.log('');
  console.log('| command | ms | over `node -e 0` ms |');
  console.log('| --- | ---: | ---: |');
  for (const [label] of startups) {
    const own = times.get(label);
    const over = median(own.map((value, round) => value - bare[round]));
    console.log(`| ${label} | ${median(own).toFixed(1)} | ${over.toFixed(1)} |`);
  }
}

// Spawn to the MCP initialize answer, warm index, against the SDK's own minimal server.
if (!args.includes('--no-mcp') && only.has('mcp')) {
  console.log('');
  console.log(`### MCP: spawn to the initialize answer (median of ${rounds * 2} runs, warm index)`);
  console.log('');
  console.log('| skills | skillhost mcp ms | SDK minimal server ms | ratio |');
  console.log('| ---: | ---: | ---: | ---: |');
  const env = { SKILLHOST_HOME: home };
  for (const size of [1, 10_000]) {
    const tree = generateTree(cache, size, 'plain');
    const argv = [bin, 'mcp', '--no-default-sources', '--skills', tree];
    const floorArgv = [join(here, 'mcp.mjs'), '--floor-server'];
    const ours = [];
    const floor = [];
    await initializeTime(argv, env); // writes the index
    for (let round = 0; round < rounds * 2; round += 1) {
      floor.push(await initializeTime(floorArgv, env));
      ours.push(await initializeTime(argv, env));
    }
    console.log(
      `| ${size.toLocaleString('en-US')} | ${median(ours).toFixed(1)} | ${median(floor).toFixed(1)} | ${ratio(median(ours), median(floor))} |`,
    );
  }
}

// catalog --budget against list at 100 skills, cold processes.
if (only.has('catalog')) {
  const small = generateTree(cache, 100, 'plain');
  const sources = ['--no-default-sources', '--skills', small, '--no-cache'];
  const listArgs = [bin, 'list', ...sources];
  const catalogArgs = [bin, 'catalog', '--budget', '8000', ...sources];
  time(listArgs);
  time(catalogArgs);
  const times = { list: [], catalog: [] };
  for (let round = 0; round < rounds * 2; round += 1) {
    times.list.push(time(listArgs));
    times.catalog.push(time(catalogArgs));
  }
  console.log('');
  console.log(
    `100 skills, cold: list ${ms(median(times.list))} ms, catalog --budget 8000 ${ms(median(times.catalog))} ms (${ratio(median(times.catalog), median(times.list))} of list)`,
  );
}

// Reading ahead on a second thread against one thread (SKILLHOST_THREADS=1): whether it pays
// depends on the machine (its cores, and how its reads compare with its parsing). Paired cold
// runs, the two taking turns in either order; the ratio is the median of each pair's.
if (only.has('threads')) {
  const plainSize = Math.max(...sizes.filter((value) => value <= 10_000), 1);
  const richSize = Math.max(...sizes);
  const plain = generateTree(cache, plainSize, 'plain');
  const rich = generateTree(cache, richSize, 'rich');
  const cases = [
    [plainSize, 'validate --json', [bin, 'validate', '--json', plain]],
    [plainSize, 'to-prompt', [bin, 'to-prompt', plain]],
    [
      plainSize,
      'list (cold, no index)',
      [bin, 'list', '--json', '--no-default-sources', '--skills', plain, '--no-cache'],
    ],
    [
      richSize,
      'list (cold, no index), rich',
      [bin, 'list', '--json', '--no-default-sources', '--skills', rich, '--no-cache'],
    ],
  ];
  const one = { SKILLHOST_HOME: home, SKILLHOST_THREADS: '1' };
  console.log('');
  console.log(`### Reading ahead against one thread (${rounds * 2} pairs of cold runs)`);
  console.log('');
  console.log(
    '| skills | measure | reading ahead ms | one thread ms | one thread / reading ahead |',
  );
  console.log('| ---: | --- | ---: | ---: | ---: |');
  for (const [size, label, argv] of cases) {
    time(argv);
    timedRun(argv, one, 'ignore');
    const ahead = [];
    const alone = [];
    for (let round = 0; round < rounds * 2; round += 1) {
      if (round % 2 === 0) {
        ahead.push(time(argv));
        alone.push(timedRun(argv, one, 'ignore'));
      } else {
        alone.push(timedRun(argv, one, 'ignore'));
        ahead.push(time(argv));
      }
    }
    const paired = median(alone.map((value, round) => value / ahead[round]));
    console.log(
      `| ${size.toLocaleString('en-US')} | ${label} | ${ms(median(ahead))} | ${ms(median(alone))} | ${paired.toFixed(2)}× |`,
    );
  }
}

// refresh() after one changed file, in process, at 10,000 skills (or the largest size below).
if (only.has('refresh')) {
  const yaml = await import('yaml');
  const { SkillRegistry } = await import('../dist/internal.js');
  const { createNodeFileSystem, sha256 } = await import('../dist/node/index.js');
  const size = Math.max(...sizes.filter((value) => value <= 10_000), 1);
  const tree = generateTree(cache, size, 'plain');
  const registry = SkillRegistry.open({
    fs: createNodeFileSystem(),
    hash: sha256,
    yaml,
    sources: [{ id: 'bench', kind: 'explicit', root: tree, trust: 'trusted', enabled: true }],
    discovery: { maxDirectories: 1_000_000 },
  });
  const victim = registry.active()[Math.floor(size / 2)];
  const original = readFileSync(victim.skillFile, 'utf8');
  const refreshTimes = [];
  const watchedTimes = [];
  try {
    for (let round = 0; round < rounds * 6; round += 1) {
      writeFileSync(
        victim.skillFile,
        original.replace('description: ', `description: Round ${round}. `),
      );
      // Alternately: every file checked, and only the path a watcher would have reported.
      const watched = round % 2 === 1;
      const started = performance.now();
      const changes = watched ? registry.refresh([victim.skillFile]) : registry.refresh();
      (watched ? watchedTimes : refreshTimes).push(performance.now() - started);
      if (changes.changed.length !== 1)
        throw new Error(`refresh saw ${changes.changed.length} changes`);
    }
  } finally {
    writeFileSync(victim.skillFile, original);
  }
  console.log(
    `${size.toLocaleString('en-US')} skills, in process: refresh() after one changed file ${median(refreshTimes).toFixed(1)} ms; with the watcher's changed path ${median(watchedTimes).toFixed(2)} ms`,
  );
}
console.log(
  `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at end`,
);
rmSync(scratch, { recursive: true, force: true });
