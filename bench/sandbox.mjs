// Benchmarks for issue 4, each against a floor measured in the same run:
//  1. a sandboxed run of a trivial script (the runner: staging, bubblewrap, limits, capture)
//     against a bare spawn of the same interpreter on the same script;
//  2. the same through runtime.runScript (checks, hashing, policy, audit records), and through
//     the runner with a project folder of 200 files as its read-only workspace (the CLI's
//     default: secret files searched for and hidden, a run folder for what it writes);
//  3. audit write throughput, events per second, to a JSON Lines file with fsync after every
//     record and without, against raw appends of same-sized lines with the same fsync policy.
// Usage: npm run bench:sandbox -- [--rounds 30] [--events 20000]
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANONICAL_TOOLS, createSkillRuntime, MemoryAuditSink } from '../dist/index.js';
import { AuditTrail } from '../dist/internal.js';
import {
  createJsonlAuditSink,
  createNodeFileSystem,
  createSandboxRunner,
  probeBubblewrap,
  sha256,
} from '../dist/node/index.js';
import { median, option } from './common.mjs';

const rounds = Number(option('rounds', '30'));
const events = Number(option('events', '20000'));
const scratch = mkdtempSync(join(tmpdir(), 'skillhost-bench-sandbox-'));

const ms = (value) => value.toFixed(1);

function bare(interpreter, script) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(interpreter, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

async function main() {
  const status = probeBubblewrap();
  if (!status.available) throw new Error(`bubblewrap is needed: ${status.reason}`);
  console.log(`Node ${process.version}, ${status.reason}, ${rounds} rounds, medians\n`);

  // The skill: a trivial script per interpreter.
  const skills = join(scratch, 'skills');
  const skill = join(skills, 'bench');
  mkdirSync(join(skill, 'scripts'), { recursive: true });
  writeFileSync(
    join(skill, 'SKILL.md'),
    '---\nname: bench\ndescription: Benchmark skill. Use for benchmarks.\n---\n# Bench\n',
  );
  const scripts = [
    ['sh', '/bin/sh', 'scripts/hello.sh', '#!/bin/sh\necho hello\n'],
    ['python3', '/usr/bin/python3', 'scripts/hello.py', '#!/usr/bin/env python3\nprint("hello")\n'],
  ];
  for (const [, , path, text] of scripts) writeFileSync(join(skill, path), text);

  const runner = createSandboxRunner();
  const projectDir = join(scratch, 'project');
  for (let index = 0; index < 200; index += 1) {
    const folder = join(projectDir, `src/part-${index % 20}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file-${index}.txt`), 'data\n');
  }
  writeFileSync(join(projectDir, '.env'), 'TOKEN=x\n');
  // Readable by all, so that as root the script runs as nobody with the system's interpreters,
  // as in the other columns (a root-only workspace runs as root mapped, with the user's).
  chmodSync(scratch, 0o755);
  const workspace = {
    path: projectDir,
    writable: false,
    outputs: join(projectDir, '.skillhost/runs'),
  };
  const limits = {
    timeoutMs: 30_000,
    maxProcesses: 64,
    maxMemoryBytes: 1024 ** 3,
    maxFileBytes: 64 * 1024 ** 2,
    maxWriteBytes: 512 * 1024 ** 2,
    maxOpenFiles: 256,
    maxCapturedBytes: 32 * 1024,
    maxOutputBytes: 64 * 1024 ** 2,
  };
  const runtime = createSkillRuntime({
    sources: [{ id: 'bench', kind: 'explicit', root: skills, trust: 'trusted', enabled: true }],
    policy: { tools: [...CANONICAL_TOOLS] },
    audit: { sink: new MemoryAuditSink(), sessionId: 'bench' },
    deps: { fs: createNodeFileSystem(), hash: sha256, now: () => new Date(), runner },
    scripts: { limits },
  });
  runtime.activate('bench', { triggeredBy: 'user' });

  console.log(
    '| script | bare spawn ms | sandboxed runner ms | ratio | runtime.runScript ms | ratio | runner + project workspace ms | ratio |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, interpreter, path] of scripts) {
    const bytes = new TextEncoder().encode(scripts.find((entry) => entry[2] === path)[3]);
    const floor = [];
    const sandboxed = [];
    const full = [];
    const withWorkspace = [];
    for (let round = 0; round < rounds + 2; round += 1) {
      // Interleaved, so that drift affects all three alike; the first two rounds warm up.
      const a = await bare(interpreter, join(skill, path));
      let started = performance.now();
      await runner.run({
        skillDirectory: skill,
        scriptPath: path,
        scriptBytes: bytes,
        interpreter: name,
        args: [],
        limits,
      });
      const b = performance.now() - started;
      started = performance.now();
      await runtime.runScript('bench', path, [], { approveOnce: true });
      const c = performance.now() - started;
      started = performance.now();
      await runner.run({
        skillDirectory: skill,
        scriptPath: path,
        scriptBytes: bytes,
        interpreter: name,
        args: [],
        limits,
        workspace,
      });
      const d = performance.now() - started;
      if (round >= 2) {
        floor.push(a);
        sandboxed.push(b);
        full.push(c);
        withWorkspace.push(d);
      }
    }
    const f = median(floor);
    console.log(
      `| ${name} | ${ms(f)} | ${ms(median(sandboxed))} | ${(median(sandboxed) / f).toFixed(2)}x | ${ms(median(full))} | ${(median(full) / f).toFixed(2)}x | ${ms(median(withWorkspace))} | ${(median(withWorkspace) / f).toFixed(2)}x |`,
    );
  }
  await runtime.close();

  // Audit throughput.
  console.log(
    `\n| audit writes (${events} events) | floor: raw appends ev/s | JSONL sink ev/s | ratio |`,
  );
  console.log('| --- | ---: | ---: | ---: |');
  for (const [label, fsync, count] of [
    ['no fsync', 'never', events],
    ['fsync every record', 'always', Math.min(events, 2000)],
  ]) {
    const record = (trail, index) =>
      trail.record({
        event: 'resource-read',
        skill_name: 'bench',
        source: 'bench',
        content_hash: 'a'.repeat(64),
        loaded_files: [`references/file-${index}.md`],
        details: { bytes: 1234, media_type: 'text/markdown', binary: false },
      });
    // The line a record becomes, to size the floor's writes alike.
    const sample = new MemoryAuditSink();
    record(
      new AuditTrail({ sink: sample, hash: sha256, now: () => new Date(), sessionId: 'x' }),
      0,
    );
    const line = Buffer.from(sample.text);

    const rawPath = join(scratch, `raw-${fsync}.jsonl`);
    const fd = openSync(
      rawPath,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
      0o600,
    );
    let started = performance.now();
    for (let index = 0; index < count; index += 1) {
      writeSync(fd, line, 0, line.length);
      if (fsync === 'always') fsyncSync(fd);
    }
    const rawSeconds = (performance.now() - started) / 1000;
    closeSync(fd);

    const sink = createJsonlAuditSink(join(scratch, `audit-${fsync}.jsonl`), { fsync });
    const trail = new AuditTrail({ sink, hash: sha256, now: () => new Date(), sessionId: 'bench' });
    started = performance.now();
    for (let index = 0; index < count; index += 1) record(trail, index);
    const sinkSeconds = (performance.now() - started) / 1000;
    sink.close();
    const rawRate = count / rawSeconds;
    const sinkRate = count / sinkSeconds;
    console.log(
      `| ${label} (${count}) | ${Math.round(rawRate)} | ${Math.round(sinkRate)} | ${(rawRate / sinkRate).toFixed(2)}x |`,
    );
  }
}

try {
  await main();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
