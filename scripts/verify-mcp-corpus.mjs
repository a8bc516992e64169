#!/usr/bin/env node
// The MCP Inspector's `skills/list --verify` over every skill of the conformance corpus that
// skillhost loads, served by the built `skillhost mcp`: the listing's frontmatter must be the
// served SKILL.md's, as parsed. Needs the corpus (../shared/conformance, or the folder given)
// and the Inspector as the clients suite installs it (`npx vitest run --project clients` once).
// Usage: npm run conformance:mcp -- [CONFORMANCE_DIR]
// Exit 0 when no listed skill fails, 1 when one does, 2 when the corpus or the Inspector is missing.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const bin = join(root, 'dist', 'cli', 'bin.js');
const argument = process.argv.slice(2).find((value) => !value.startsWith('--'));
const corpus = join(resolve(argument ?? join(root, '..', 'shared', 'conformance')), 'corpus');
const cache =
  process.env.SKILLHOST_CLIENTS_CACHE || join(homedir(), '.cache', 'skillhost-test-clients');
const node22 = join(cache, 'node@22.23.3', 'node_modules', 'node', 'bin', 'node');
const inspector = join(
  cache,
  'inspector@2.12.0',
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
/** The Inspector verifies at most 256 skills a listing; a batch stays under that. */
const BATCH = 200;

for (const [path, what] of [
  [corpus, 'no corpus'],
  [inspector, 'no Inspector (run the clients suite once to install it)'],
  [node22, 'no Node 22 for the Inspector (run the clients suite once)'],
  [bin, 'no built bin (npm run build)'],
]) {
  if (!existsSync(path)) {
    console.error(`conformance:mcp: ${what}: ${path}`);
    process.exit(2);
  }
}

/** Every folder holding a SKILL.md (a skill is a leaf), skipping .git and node_modules. */
function skillFolders(folder, depth = 0, found = []) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return found;
  }
  if (entries.some((entry) => entry.isFile() && /^skill\.md$/i.test(entry.name))) {
    found.push(folder);
    return found;
  }
  if (depth > 8) return found;
  for (const entry of entries)
    if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules')
      skillFolders(join(folder, entry.name), depth + 1, found);
  return found;
}

// Each batch is a folder of links to skill folders whose names (their folders' names) differ,
// served with --follow-symlinks: every skill is served once, whatever else shares its name.
const folders = [...new Set(skillFolders(corpus).map((folder) => realpathSync(folder)))].sort();
const batches = [];
for (const folder of folders) {
  const name = basename(folder);
  let batch = batches.find((candidate) => candidate.size < BATCH && !candidate.has(name));
  if (batch === undefined) {
    batch = new Map();
    batches.push(batch);
  }
  batch.set(name, folder);
}

/** Why the skills extension would not list a skill: its rules, on the file's YAML as parsed. */
function notListable(folder) {
  const file = ['SKILL.md', 'skill.md'].map((name) => join(folder, name)).find(existsSync);
  const text = readFileSync(file, 'utf8');
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*\r?$/m.exec(text);
  let fields;
  try {
    fields = parseYaml(match?.[1] ?? '');
  } catch {
    return 'YAML a client cannot parse';
  }
  const name = fields?.name;
  if (typeof name !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name))
    return 'a name that is not the lowercase, hyphenated form';
  if (name !== basename(folder)) return "a name that is not its folder's";
  if (
    fields.metadata !== undefined &&
    Object.values(fields.metadata ?? {}).some((value) => typeof value !== 'string')
  )
    return 'metadata values that parse as numbers, booleans or lists';
  if (typeof fields.description !== 'string' || [...fields.description].length > 1024)
    return 'a description that is not 1-1024 characters';
  return 'another rule of the extension';
}

const home = mkdtempSync(join(tmpdir(), 'skillhost-verify-'));
const env = { ...process.env, SKILLHOST_HOME: home };
const totals = { folders: 0, offered: 0, listed: 0, passed: 0, failed: 0 };
const failures = [];
const leftOut = [];
try {
  for (const [index, batch] of batches.entries()) {
    const farm = join(home, `batch-${index}`);
    mkdirSync(farm);
    for (const [name, folder] of batch) symlinkSync(folder, join(farm, name));
    const sources = ['--no-default-sources', '--no-cache', '--follow-symlinks', '--skills', farm];
    totals.folders += batch.size;
    const list = spawnSync(process.execPath, [bin, 'list', '--json', ...sources], {
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const offered = JSON.parse(list.stdout).skills.filter((skill) => skill.status === 'active');
    totals.offered += offered.length;
    const run = spawnSync(
      node22,
      [
        inspector,
        '--cli',
        '-e',
        `SKILLHOST_HOME=${home}`,
        process.execPath,
        bin,
        'mcp',
        '--no-watch',
        ...sources,
        '--method',
        'skills/list',
        '--verify',
        '--format',
        'json',
      ],
      { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
    );
    const reports = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{"uri"'))
      .map((line) => JSON.parse(line));
    totals.listed += reports.length;
    const listedNames = new Set(reports.map((report) => report.name));
    for (const skill of offered)
      if (!listedNames.has(skill.name))
        leftOut.push({ name: skill.name, reason: notListable(batch.get(skill.name)) });
    for (const report of reports) {
      if (report.ok === true && report.outcome !== 'failed') totals.passed += 1;
      else {
        totals.failed += 1;
        failures.push({
          name: report.name,
          issues: [...report.conformance, ...report.frontmatter],
        });
      }
    }
    if (run.status !== 0 && reports.every((report) => report.ok === true))
      failures.push({
        name: farm,
        issues: [{ message: `the Inspector exited ${run.status}: ${run.stderr.slice(-2000)}` }],
      });
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}

console.log(
  `skills/list --verify over ${corpus}: ${totals.folders} skill folders in ${batches.length} servings of at most ${BATCH}; ` +
    `${totals.offered} loaded and offered; ${totals.listed} listed; ${totals.passed} passed, ${totals.failed} failed.`,
);
if (leftOut.length > 0) {
  const reasons = new Map();
  for (const { reason } of leftOut) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  console.log(
    `${leftOut.length} offered skills are left out of skills/list, which lists only entries the skills extension allows (they stay served as tools and prompts):`,
  );
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1]))
    console.log(`  ${count}  ${reason}`);
}
for (const failure of failures.slice(0, 30))
  console.log(
    `FAILED ${failure.name}: ${failure.issues.map((issue) => issue.message).join(' | ')}`,
  );
process.exit(failures.length === 0 ? 0 : 1);
