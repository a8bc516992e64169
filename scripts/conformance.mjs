#!/usr/bin/env node
// Strict validation over the shared conformance corpus, compared with the reference validator's
// verdicts. Usage: npm run conformance -- [CONFORMANCE_DIR] [--write-divergences]
// Exit 0 when parity is at least 99.5%, properties agree wherever both call a skill valid, and
// every divergence is listed (with a reason) in conformance/divergences.tsv.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as yaml from 'yaml';
import { splitFrontmatter } from '../dist/format/frontmatter.js';
import { parseYamlFast } from '../dist/format/yaml-fast.js';
import { parseYamlWithLibrary } from '../dist/format/yaml-library.js';
import { readSkillDirectory } from '../dist/index.js';
import { checkSkillDirectory, findSkillFileEntry } from '../dist/internal.js';
import { createNodeFileSystem } from '../dist/node/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const writeDivergences = args.includes('--write-divergences');
const directoryArgument = args.find((argument) => !argument.startsWith('--'));
const conformanceDir = resolve(directoryArgument ?? join(root, '..', 'shared', 'conformance'));
const corpus = join(conformanceDir, 'corpus');
const divergenceFile = join(root, 'conformance', 'divergences.tsv');
const minimumParity = 0.995;

if (!existsSync(corpus)) {
  console.error(`conformance: no corpus at ${corpus}`);
  process.exit(2);
}

const fs = createNodeFileSystem();
const verdicts = [];
for (const name of ['verdicts.jsonl', 'registry-sample-verdicts.jsonl']) {
  const path = join(conformanceDir, name);
  if (!existsSync(path)) continue;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() !== '') verdicts.push(JSON.parse(line));
  }
}

const listed = new Map();
if (existsSync(divergenceFile)) {
  for (const line of readFileSync(divergenceFile, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [dir, reason] = line.split('\t');
    listed.set(dir, reason ?? '');
  }
}

function sameJson(a, b) {
  const order = (value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, order(value[key])]),
        )
      : value;
  return JSON.stringify(order(a)) === JSON.stringify(order(b));
}

/** Real-data differential check: the fast scanner must read every frontmatter it accepts as the library does. */
const fastPath = { frontmatters: 0, accepted: 0, disagreements: [] };
function plain(result) {
  const locations = {};
  for (const [key, location] of result.locations) {
    locations[key] = [
      location.keyOffset,
      location.valueOffset,
      [...(location.children ?? new Map())].map(([k, c]) => [k, c.keyOffset, c.valueOffset]),
    ];
  }
  return JSON.stringify({ data: result.data, locations });
}
function checkFastPath(directory, skillFileName) {
  let text;
  try {
    text = readFileSync(join(directory, skillFileName), 'utf8').replace(/^\uFEFF/, '');
  } catch {
    return;
  }
  const split = splitFrontmatter(text);
  if (!split.ok) return;
  fastPath.frontmatters += 1;
  const fast = parseYamlFast(split.frontmatter);
  if (fast === undefined) return;
  fastPath.accepted += 1;
  const library = parseYamlWithLibrary(split.frontmatter, 32, yaml);
  if (library.problems.length > 0 || plain(fast) !== plain(library))
    fastPath.disagreements.push(directory);
}

const started = performance.now();
const divergences = [];
const propertyMismatches = [];
let agree = 0;
const lenient = { loaded: 0, skipped: 0, byCode: new Map() };
for (const verdict of verdicts) {
  const directory = join(corpus, verdict.dir);
  const listing = fs.listDirectory(directory);
  const entry = listing.ok ? findSkillFileEntry(listing.entries) : undefined;
  // Link checks give warnings only, never a verdict: skip them.
  const check = checkSkillDirectory(
    fs,
    {
      directory,
      skillFileName: entry?.name ?? 'SKILL.md',
      ...(entry ? { skillFileKind: entry.kind } : {}),
    },
    { checkLinks: false, yaml },
  );
  checkFastPath(directory, entry?.name ?? 'SKILL.md');
  const codes = [
    ...new Set(check.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)),
  ];
  if (check.valid === verdict.valid) {
    agree += 1;
    if (check.valid && !sameJson(check.properties, verdict.properties)) {
      propertyMismatches.push({
        dir: verdict.dir,
        ours: check.properties,
        reference: verdict.properties,
      });
    }
  } else {
    divergences.push({
      dir: verdict.dir,
      reference: verdict.valid ? 'valid' : 'invalid',
      ours: check.valid ? 'valid' : `invalid (${codes.join(', ')})`,
      referenceErrors: verdict.errors.map((error) => error.split('\n')[0]),
    });
  }
  const loaded = readSkillDirectory(fs, directory, { level: 'metadata', mode: 'lenient' });
  if (loaded.skill) lenient.loaded += 1;
  else {
    lenient.skipped += 1;
    const code = loaded.diagnostics.find((d) => d.severity === 'error')?.code ?? 'UNKNOWN';
    lenient.byCode.set(code, (lenient.byCode.get(code) ?? 0) + 1);
  }
}
const elapsed = performance.now() - started;

const total = verdicts.length;
const parity = total === 0 ? 0 : agree / total;
console.log(
  `Strict verdicts: ${agree} of ${total} agree with the reference (${(parity * 100).toFixed(2)}%)`,
);
console.log(`Divergences: ${divergences.length}`);
for (const divergence of divergences) {
  const reason = listed.get(divergence.dir);
  console.log(
    `  ${divergence.dir}: reference ${divergence.reference}, skillhost ${divergence.ours}` +
      (reason
        ? `\n      listed: ${reason}`
        : `\n      NOT LISTED; reference said: ${divergence.referenceErrors.join(' | ') || '(no errors)'}`),
  );
}
console.log(`Properties: ${propertyMismatches.length} mismatches among skills both call valid`);
for (const mismatch of propertyMismatches.slice(0, 20)) {
  console.log(
    `  ${mismatch.dir}\n    ours:      ${JSON.stringify(mismatch.ours)}\n    reference: ${JSON.stringify(mismatch.reference)}`,
  );
}
const codes = [...lenient.byCode.entries()]
  .sort((a, b) => b[1] - a[1])
  .map(([code, count]) => `${code} ${count}`);
console.log(
  `Lenient loading: ${lenient.loaded} load, ${lenient.skipped} skipped${codes.length ? ` (${codes.join(', ')})` : ''}`,
);
console.log(`Time: ${(elapsed / 1000).toFixed(2)} s for ${total} skills, strict and lenient`);
console.log(
  `Fast frontmatter scanner: accepted ${fastPath.accepted} of ${fastPath.frontmatters} frontmatters; ${fastPath.disagreements.length} disagree with the YAML library`,
);
for (const directory of fastPath.disagreements) console.log(`  disagrees: ${directory}`);

if (writeDivergences) {
  const lines = [
    '# Skills where skillhost strict validation and the reference validator disagree.',
    '# dir<TAB>reason',
  ];
  for (const divergence of divergences) {
    lines.push(`${divergence.dir}\t${listed.get(divergence.dir) ?? 'TODO: explain'}`);
  }
  writeFileSync(divergenceFile, `${lines.join('\n')}\n`);
  console.log(`Wrote ${divergenceFile}`);
}

const unlisted = divergences.filter(
  (divergence) => !listed.get(divergence.dir) || listed.get(divergence.dir).startsWith('TODO'),
);
const stale = [...listed.keys()].filter(
  (dir) => !divergences.some((divergence) => divergence.dir === dir),
);
if (stale.length > 0) console.log(`Listed but no longer divergent: ${stale.join(', ')}`);
const ok =
  parity >= minimumParity &&
  propertyMismatches.length === 0 &&
  unlisted.length === 0 &&
  stale.length === 0;
console.log(ok ? 'conformance: PASS' : 'conformance: FAIL');
process.exit(ok ? 0 : 1);
