#!/usr/bin/env node
// Runs the example code-analyst agent on a task with `skillhost agent run`, on the first model
// that is usable here (examples/provider-choice.mjs): a logged-in Claude Code, an Anthropic or
// OpenAI key in the environment, or an OpenAI-compatible server on this machine (Ollama's or LM
// Studio's port). Without one it starts a scripted local model (examples/scripted-model.mjs) and
// says so. Choosing never calls a remote service, and the scripted model needs no network.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseProvider } from './provider-choice.mjs';
import { startScriptedModel } from './scripted-model.mjs';

const examples = dirname(fileURLToPath(import.meta.url));
const bin = join(examples, '..', 'dist', 'cli', 'bin.js');
const keep = process.argv.includes('--keep');
const task =
  process.argv.slice(2).find((argument) => argument !== '--keep') ??
  'Review the example skills folder: which files are largest, and what would you check first?';

let scripted;
let provider;
const env = { ...process.env, SKILLHOST_HOME: mkdtempSync(join(tmpdir(), 'skillhost-agent-run-')) };
// Its sessions and audit log live in a folder of its own, removed at the end unless --keep.
if (!keep) process.on('exit', () => rmSync(env.SKILLHOST_HOME, { recursive: true, force: true }));
const choice = await chooseProvider();
const extra = [...choice.args];
provider = choice.label;
if (choice.kind === 'scripted') {
  scripted = await startScriptedModel();
  provider = `${choice.label}, at ${scripted.url}`;
  // The scripted model speaks the Messages API; the key is a placeholder it never checks.
  env.ANTHROPIC_BASE_URL = scripted.url;
  env.ANTHROPIC_API_KEY = 'scripted-model-placeholder';
  extra.push('--provider', 'anthropic');
}

console.log(`\n== skillhost agent run code-analyst, on ${provider}`);
console.log(`   task: ${task}\n`);
const args = [
  bin,
  'agent',
  'run',
  '--no-default-sources',
  '--skills',
  join(examples, 'skills'),
  '--agents',
  join(examples, 'agents'),
  '--workspace',
  join(examples, 'skills'),
  // The demo approves each call that asks, once (the sandbox still applies).
  '--yes',
  '--max-steps',
  '8',
  ...extra,
  'code-analyst',
  task,
];
try {
  // The child's output streams straight through; an async spawn keeps the scripted model serving.
  const { spawn, spawnSync } = await import('node:child_process');
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
    child.on('close', (status) => resolve(status ?? 1));
  });
  const verify = spawnSync(process.execPath, [bin, 'audit', 'verify'], { env, encoding: 'utf8' });
  console.log(
    `\n   exit code ${code}; audit log: ${verify.status === 0 ? 'intact' : 'NOT intact'}; sessions and the audit log are in ${env.SKILLHOST_HOME}${keep ? '' : ', removed now (--keep keeps them)'}`,
  );

  if (code !== 0) process.exitCode = code;
} finally {
  await scripted?.close();
}
