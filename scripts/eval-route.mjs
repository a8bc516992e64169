#!/usr/bin/env node
// Evaluates the router on hand-written tasks (eval/route/tasks.json): top-1 and top-3 accuracy,
// false selections, and selections resting only on stop words. The skills of each suite are
// read at evaluation time: the suite "fixtures" from eval/route/skills, the others from public
// collections in the conformance corpus (../shared/conformance/corpus, or the folder given).
// Usage: npm run eval:route -- [CORPUS_DIR] [--verbose]
// Exit 1 when top-3 accuracy is under 90% or a selection rests only on stop words.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as yaml from 'yaml';
import { ROUTER_STOP_WORDS, SkillRouter } from '../dist/index.js';
import { SkillRegistry } from '../dist/internal.js';
import { createNodeFileSystem } from '../dist/node/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const corpusArgument = args.find((argument) => !argument.startsWith('--'));
const corpus = resolve(corpusArgument ?? join(root, '..', 'shared', 'conformance', 'corpus'));
const evalDir = join(root, 'eval', 'route');
const { suites } = JSON.parse(readFileSync(join(evalDir, 'tasks.json'), 'utf8'));
const fs = createNodeFileSystem();

function skillsOf(suite) {
  const folders =
    suite.skills !== undefined
      ? [join(evalDir, suite.skills)]
      : suite.collections.map((collection) => join(corpus, collection));
  if (!folders.every((folder) => existsSync(folder))) return undefined;
  const registry = SkillRegistry.open({
    fs,
    yaml,
    sources: folders.map((folder, index) => ({
      id: `suite-${index}`,
      kind: 'explicit',
      root: folder,
      trust: 'trusted',
      enabled: true,
    })),
    discovery: { maxDepth: 8, maxDirectories: 100_000 },
  });
  return registry.active().map((entry) => ({
    name: entry.name,
    description: entry.metadata?.description ?? '',
  }));
}

const percent = (part, whole) => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`);
const zero = () => ({
  tasks: 0,
  expecting: 0,
  top1: 0,
  top3: 0,
  none: 0,
  falseSelections: 0,
  stopWordOnly: 0,
});
const totals = zero();
const rows = [];
const skipped = [];
for (const suite of suites) {
  const skills = skillsOf(suite);
  if (skills === undefined) {
    skipped.push(suite.name);
    continue;
  }
  const router = new SkillRouter(skills);
  const names = new Set(skills.map((skill) => skill.name));
  const counts = zero();
  for (const { task, should, shouldNot = [] } of suite.tasks) {
    for (const name of [...should, ...shouldNot])
      if (!names.has(name)) throw new Error(`suite ${suite.name}: no skill named ${name}`);
    const result = router.route(task);
    const ranked = result.ranked.map((candidate) => candidate.name);
    counts.tasks += 1;
    const wrong = result.selected.filter(
      (name) => shouldNot.includes(name) || (should.length > 0 ? !should.includes(name) : true),
    );
    counts.falseSelections += wrong.length;
    for (const name of result.selected) {
      const candidate = result.ranked.find((item) => item.name === name);
      const words = Object.keys(candidate?.terms ?? {}).flatMap((term) => term.split(' '));
      if (words.length > 0 && words.every((word) => ROUTER_STOP_WORDS.has(word)))
        counts.stopWordOnly += 1;
    }
    if (should.length === 0) {
      counts.none += 1;
    } else {
      counts.expecting += 1;
      if (should.includes(ranked[0])) counts.top1 += 1;
      if (ranked.slice(0, 3).some((name) => should.includes(name))) counts.top3 += 1;
    }
    const missed = should.length > 0 && !ranked.slice(0, 3).some((name) => should.includes(name));
    if (verbose && (missed || wrong.length > 0)) {
      console.log(`[${suite.name}] ${JSON.stringify(task)}`);
      console.log(
        `    expected ${should.join(' | ') || '(nothing)'}; selected ${result.selected.join(', ') || '(nothing)'}`,
      );
      for (const candidate of result.ranked.slice(0, 3))
        console.log(
          `    ${candidate.score.toFixed(2).padStart(6)} ${candidate.name} (coverage ${candidate.coverage}, ${candidate.verdict}): ${Object.entries(
            candidate.terms,
          )
            .map(([term, score]) => `${term} ${score}`)
            .join(', ')}`,
        );
    }
  }
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  rows.push([suite.name, skills.length, counts]);
}

console.log('Router evaluation (eval/route/tasks.json)');
console.log(
  '| suite | skills | tasks | top-1 | top-3 | false selections | stop-word-only selections |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [name, skills, counts] of rows)
  console.log(
    `| ${name} | ${skills} | ${counts.tasks} (${counts.none} expect none) | ${percent(counts.top1, counts.expecting)} | ${percent(counts.top3, counts.expecting)} | ${counts.falseSelections} | ${counts.stopWordOnly} |`,
  );
console.log(
  `| all | | ${totals.tasks} (${totals.none} expect none) | ${percent(totals.top1, totals.expecting)} | ${percent(totals.top3, totals.expecting)} | ${totals.falseSelections} | ${totals.stopWordOnly} |`,
);
if (skipped.length > 0)
  console.log(`Not run (their collections are not in ${corpus}): ${skipped.join(', ')}`);
const top3 = totals.expecting === 0 ? 0 : totals.top3 / totals.expecting;
if (top3 < 0.9 || totals.stopWordOnly > 0) {
  console.log('eval:route: FAIL (target: top-3 at least 90%, no selection on stop words alone)');
  process.exitCode = 1;
} else console.log('eval:route: PASS');
