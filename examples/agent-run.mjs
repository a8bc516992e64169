#!/usr/bin/env node
// Runs the example code-analyst agent on a task with `skillhost agent run`, on the first model
// that is usable here: an Anthropic or OpenAI key in the environment, or an OpenAI-compatible
// server on this machine (Ollama's or LM Studio's port). Without one it starts a scripted local
// model (examples/scripted-model.mjs) and says so. It never needs the network for that.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedModel } from './scripted-model.mjs';

const examples = dirname(fileURLToPath(import.meta.url));
const bin = join(examples, '..', 'dist', 'cli', 'bin.js');
const keep = process.argv.includes('--keep');
const task =
  process.argv.slice(2).find((argument) => argument !== '--keep') ??
  'Review the example skills folder: which files are largest, and what would you check first?';

/** An OpenAI-compatible server on localhost, and its first model, if one answers quickly. */
async function localServer() {
  for (const base of [
    'http://127.0.0.1:11434/v1',
    'http://127.0.0.1:1234/v1',
    'http://127.0.0.1:8080/v1',
  ]) {
    try {
      const response = await fetch(`${base}/models`, { signal: AbortSignal.timeout(300) });
      if (!response.ok) continue;
      const body = await response.json();
      const model = body?.data?.[0]?.id;
      if (typeof model === 'string') return { base, model };
    } catch {
      // Nothing listens there.
    }
  }
  return undefined;
}

let scripted;
let provider;
const env = { ...process.env, SKILLHOST_HOME: mkdtempSync(join(tmpdir(), 'skillhost-agent-run-')) };
// Its sessions and audit log live in a folder of its own, removed at the end unless --keep.
if (!keep) process.on('exit', () => rmSync(env.SKILLHOST_HOME, { recursive: true, force: true }));
const extra = [];
if (process.env.ANTHROPIC_API_KEY) {
  provider = 'anthropic (ANTHROPIC_API_KEY)';
  extra.push('--provider', 'anthropic');
} else if (process.env.OPENAI_API_KEY) {
  provider = 'openai (OPENAI_API_KEY)';
  extra.push('--provider', 'openai', '--model', 'gpt-5-mini');
} else {
  const local = await localServer();
  if (local !== undefined) {
    provider = `openai-compatible at ${local.base} (${local.model})`;
    extra.push('--provider', 'openai-compatible', '--base-url', local.base, '--model', local.model);
  } else {
    scripted = await startScriptedModel();
    provider = `a SCRIPTED LOCAL MODEL at ${scripted.url} (no real model: no API key or local server was found)`;
    // The scripted model speaks the Messages API; the key is a placeholder it never checks.
    env.ANTHROPIC_BASE_URL = scripted.url;
    env.ANTHROPIC_API_KEY = 'scripted-model-placeholder';
    extra.push('--provider', 'anthropic');
  }
}
// (A logged-in `claude` command line is a command-line agent, which agent run does not drive yet.)

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
