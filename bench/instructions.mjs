// `npm run bench:instructions`: the file commands against the I/O floor in instructions, not in
// time. Each run is a cold process under valgrind's callgrind with V8 on one thread
// (`node --single-threaded`: the compiler and the collector work on the main thread), so a count
// repeats within about 0.5% where wall times on a shared machine move by 10-30% between runs.
// What it cannot see is the kernel's share: the time the floor spends in system calls is not
// counted, so these ratios are higher than the time ratios of `npm run bench` and are for
// telling whether a change does less work, not for the targets. A second table puts each count
// in parts by the profile's symbols (V8's optimising compiler, our compiled JavaScript, ...).
//
// Usage: npm run bench:instructions -- [--sizes 10000] [--trees plain,rich] [--cache DIR]
//        [--floor-io PATH] [--jobs 2]
// Needs valgrind (Debian: apt-get install valgrind). Trees are the ones `npm run bench` makes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, option } from './common.mjs';
import { generateTree } from './generate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const sizes = option('sizes', '10000').split(',').map(Number);
const trees = option('trees', 'plain,rich').split(',');
const cache = resolve(option('cache', join(tmpdir(), 'skillhost-bench-cache')));
const floorIo = resolve(option('floor-io', join(root, '..', 'shared', 'bench', 'floor-io.mjs')));
const jobs = Math.max(1, Number(option('jobs', String(Math.min(2, cpus().length)))));
const bin = join(root, 'dist', 'cli', 'bin.js');

if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error(
    'bench:instructions needs valgrind (Debian: apt-get install valgrind); nothing run',
  );
  process.exit(2);
}
if (!existsSync(floorIo)) throw new Error(`no I/O floor at ${floorIo} (give --floor-io PATH)`);

const scratch = mkdtempSync(join(tmpdir(), 'skillhost-instructions-'));
// One thread of ours too: a helper thread that reads ahead does the same work elsewhere (and its
// start is work of its own); what it saves in time is `npm run bench`'s to show.
const env = benchEnv({ SKILLHOST_HOME: join(scratch, 'home'), SKILLHOST_THREADS: '1' });

/**
 * The instructions a cold `node ARGV...` executes, in millions; with `oneThread`, V8's compiler
 * and collector work on the main thread, which makes a long run's count repeat (callgrind counts
 * every thread, but what a background compiler finishes in time changes from run to run). A
 * start-up is counted as it runs: one thread does nearly all of it, and the flag alone would
 * add tens of millions.
 */
function instructions(argv, oneThread = true, profile = '/dev/null') {
  return new Promise((done, fail) => {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${profile}`,
        // V8 writes the code it compiles into memory it then runs.
        '--smc-check=all-non-file',
        process.execPath,
        ...(oneThread ? ['--single-threaded'] : []),
        ...argv,
      ],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      const collected = /Collected : (\d+)/.exec(stderr);
      if (code !== 0 || collected === null) {
        fail(new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      done(Number(collected[1]) / 1e6);
    });
  });
}

/** Runs the measures `jobs` at a time; gives their counts in order (with `profiles`, each run's file). */
async function measureAll(measures, oneThread = true, profiles = undefined) {
  const counts = new Array(measures.length);
  let next = 0;
  const worker = async () => {
    while (next < measures.length) {
      const index = next;
      next += 1;
      counts[index] = await instructions(measures[index][1], oneThread, profiles?.[index]);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return counts;
}

/**
 * What does the work, from the symbols of a callgrind profile: each function's own count (not
 * what it calls) put in one of a few parts. Code V8 compiled at run time has no symbol (our
 * JavaScript, and regular expressions); V8's optimising compiler, its collector, its built-ins
 * and the rest of V8 are named; the C library and Node (with libuv and ICU) are the rest.
 */
const PARTS = [
  'optimising compiler',
  'compiled JavaScript',
  'V8 built-ins',
  'V8 runtime',
  'collector',
  'C library',
  'Node and the rest',
];

function partOf(object, name) {
  if (/^0x[0-9a-f]+$/.test(name) && object === '???') return 'compiled JavaScript';
  if (name.startsWith('Builtins_')) return 'V8 built-ins';
  if (/v8::internal::compiler::|turboshaft/.test(name)) return 'optimising compiler';
  if (
    /Scaveng|v8::internal::(Heap|MarkCompact|MinorMarkCompact|Sweeper|Evacuat|ConcurrentMarking|IncrementalMarking|MarkingVisitor|MemoryAllocator)|IterateObjectCache|heap::base::|cppgc::/.test(
      name,
    )
  )
    return 'collector';
  if (name.includes('v8::') || name.startsWith('Builtins')) return 'V8 runtime';
  if (/\/(libc|libm|ld-linux[^/]*)\.so/.test(object)) return 'C library';
  return 'Node and the rest';
}

/**
 * Each part's share of a callgrind profile's count. The format names a file, object or function
 * once with `(id) name` and then by `(id)` alone; a cost line after `calls=` is the call's
 * (inclusive) cost, counted with the function it calls, so it is skipped here.
 */
function instructionParts(text) {
  const objects = new Map();
  const functions = new Map();
  const name = (table, value) => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(value);
    if (match === null) return value;
    if (match[2] !== undefined) table.set(match[1], match[2]);
    return table.get(match[1]) ?? '';
  };
  const totals = new Map(PARTS.map((part) => [part, 0]));
  let object = '';
  let fn = '';
  let call = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('ob=')) object = name(objects, line.slice(3));
    else if (line.startsWith('cob=')) name(objects, line.slice(4));
    else if (line.startsWith('fn=')) fn = name(functions, line.slice(3));
    else if (line.startsWith('cfn=')) name(functions, line.slice(4));
    else if (line.startsWith('calls=')) call = true;
    else if (/^[0-9+*-]/.test(line)) {
      if (call) call = false;
      else {
        const fields = line.trim().split(/\s+/);
        const part = partOf(object, fn);
        totals.set(part, (totals.get(part) ?? 0) + Number(fields[fields.length - 1]));
      }
    }
  }
  return totals;
}

const millions = (value) => Math.round(value).toLocaleString('en-US');
const ratio = (value, floor) => `${(value / floor).toFixed(2)}×`;

console.log(
  `skillhost in instructions (node ${process.version} --single-threaded under callgrind, ${jobs} at a time; the kernel's share is not counted)`,
);
const parts = [];
try {
  for (const kind of trees) {
    console.log('');
    console.log(`### ${kind} tree`);
    console.log('');
    console.log('| skills | measure | M instructions | floor-io M | ratio |');
    console.log('| ---: | --- | ---: | ---: | ---: |');
    for (const size of sizes) {
      const tree = generateTree(cache, size, kind);
      const sources = ['--no-default-sources', '--skills', tree];
      const cacheDir = join(scratch, `index-${kind}-${size}`);
      // The warm list reads the index this run writes.
      spawnSync(process.execPath, [bin, 'list', '--json', ...sources, '--cache-dir', cacheDir], {
        env,
        stdio: 'ignore',
      });
      const measures = [
        ['floor-io', [floorIo, tree]],
        ['validate --json', [bin, 'validate', '--json', tree]],
        ['to-prompt', [bin, 'to-prompt', tree]],
        ['list (cold, no index)', [bin, 'list', '--json', ...sources, '--no-cache']],
        ['list (warm index)', [bin, 'list', '--json', ...sources, '--cache-dir', cacheDir]],
        ['catalog (cold)', [bin, 'catalog', ...sources, '--no-cache']],
      ];
      const profiles = measures.map((_, index) => join(scratch, `${kind}-${size}-${index}.out`));
      const counts = await measureAll(measures, true, profiles);
      const floor = counts[0];
      measures.slice(1).forEach(([label], index) => {
        const count = counts[index + 1];
        console.log(
          `| ${size.toLocaleString('en-US')} | ${label} | ${millions(count)} | ${millions(floor)} | ${ratio(count, floor)} |`,
        );
      });
      parts.push([kind, size, measures, profiles]);
    }
  }

  // Where the instructions go: V8's optimising compiler, on the main thread here, is a part
  // of every command's cost that no change to our code's speed shows.
  console.log('');
  console.log("### Where the instructions go (share of each run's count)");
  console.log('');
  console.log(`| tree | skills | measure | ${PARTS.join(' | ')} |`);
  console.log(`| --- | ---: | --- | ${PARTS.map(() => '---:').join(' | ')} |`);
  for (const [kind, size, measures, profiles] of parts) {
    measures.forEach(([label], index) => {
      const totals = instructionParts(readFileSync(profiles[index], 'utf8'));
      const all = [...totals.values()].reduce((sum, value) => sum + value, 0);
      const shares = PARTS.map((part) => `${((100 * (totals.get(part) ?? 0)) / all).toFixed(0)}%`);
      console.log(
        `| ${kind} | ${size.toLocaleString('en-US')} | ${label} | ${shares.join(' | ')} |`,
      );
    });
  }

  const one = generateTree(cache, 1, 'plain');
  const startups = [
    ['node -e 0', ['-e', '0']],
    ['skillhost --version', [bin, '--version']],
    ['skillhost validate (1 skill)', [bin, 'validate', one]],
  ];
  // A start as users have it: the command line's code cache written by an earlier run.
  for (const [, argv] of startups) spawnSync(process.execPath, argv, { env, stdio: 'ignore' });
  const counts = await measureAll(startups, false);
  console.log('');
  console.log('### Start-up (V8 as it runs by default)');
  console.log('');
  console.log('| command | M instructions | over `node -e 0` M |');
  console.log('| --- | ---: | ---: |');
  startups.forEach(([label], index) => {
    console.log(
      `| ${label} | ${millions(counts[index])} | ${millions(counts[index] - counts[0])} |`,
    );
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
