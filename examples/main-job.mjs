#!/usr/bin/env node
// The main job, offline, on the examples: load the code-analyst agent, route a task to
// skills, activate them, read a resource, run a script in the sandbox, and print the assembled
// prompt with token counts and the audit trail of what happened. A second script needs a
// package from the user's project (its .venv) and writes a report: the run says where it went. It uses only the public API
// (`skillhost` and `skillhost/node`), as an application would.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CANONICAL_TOOLS,
  createSkillRuntime,
  loadTokenCounter,
  parseAuditLog,
  verifyAuditLog,
} from 'skillhost';
import {
  createJsonlAuditSink,
  nodeRuntimeDeps,
  probeBubblewrap,
  readAuditLogFile,
  sha256,
} from 'skillhost/node';

const examples = dirname(fileURLToPath(import.meta.url));
// The job works in a folder of its own, removed when it ends (however it ends) unless --keep.
const keep = process.argv.includes('--keep');
const scratch = mkdtempSync(join(tmpdir(), 'skillhost-main-job-'));
if (!keep) process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const auditPath = join(scratch, 'audit.jsonl');
const task =
  process.argv.slice(2).find((argument) => argument !== '--keep') ??
  'Summarise the sample CSV data file, then review the code for bugs.';

const heading = (title) => console.log(`\n== ${title}`);
const indent = (text, lines = 12) => {
  const all = text.trimEnd().split('\n');
  const shown = all.slice(0, lines).map((line) => `   ${line}`);
  if (all.length > lines) shown.push(`   … (${all.length - lines} more lines)`);
  return shown.join('\n');
};

// The user's project: a data file, and a virtual environment holding the tabletools package,
// made offline from its source in examples/packages (no package index needed).
const project = join(scratch, 'project');
mkdirSync(project);
copyFileSync(join(examples, 'skills/csv-summary/assets/sample.csv'), join(project, 'cities.csv'));
let venvReady = false;
try {
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(project, '.venv')]);
  const site = execFileSync(join(project, '.venv/bin/python'), [
    '-c',
    'import sysconfig; print(sysconfig.get_paths()["purelib"])',
  ])
    .toString()
    .trim();
  cpSync(join(examples, 'packages/tabletools/tabletools'), join(site, 'tabletools'), {
    recursive: true,
  });
  venvReady = true;
} catch (error) {
  console.log(`(no project .venv: ${error.message.split('\n')[0]})`);
}

const sink = createJsonlAuditSink(auditPath);
const runtime = createSkillRuntime({
  sources: [
    {
      id: 'examples',
      kind: 'explicit',
      root: join(examples, 'skills'),
      trust: 'trusted',
      enabled: true,
    },
  ],
  // The host offers every tool; nothing here is denied, scripts still need a grant or a yes.
  policy: { tools: [...CANONICAL_TOOLS] },
  audit: { sink, sessionId: randomUUID() },
  // Scripts see the project read-only as their working directory; what they write there is
  // kept in a run folder under its .skillhost/runs.
  scripts: {
    workspace: { path: project, writable: false, outputs: join(project, '.skillhost/runs') },
  },
  deps: nodeRuntimeDeps({
    // Stands in for the user at the prompt: this demo approves each run it asks about, once.
    // (An untrusted skill the model picks would be asked about too: question.kind 'activation'.)
    confirm: async (question) => {
      const what =
        question.kind === 'script' ? `run ${question.script} of` : 'activate the untrusted skill';
      console.log(`   ? ${what} ${question.skill} (${question.reason}) → yes, once`);
      return 'yes';
    },
  }),
});

try {
  heading('1. Load the agent: examples/agents/code-analyst');
  const countTokens = await loadTokenCounter();
  const agent = runtime.loadAgent('code-analyst', {
    bases: [{ directory: join(examples, 'agents'), kind: 'explicit' }],
    countTokens,
  });
  console.log(
    `   model ${agent.plan.provider} ${agent.plan.model} (fallback ${agent.plan.fallback ?? 'none'})`,
  );
  console.log(`   preloaded skills: ${agent.skills.map((skill) => skill.name).join(', ')}`);
  console.log(`   progressive skills in its catalog: ${agent.catalogSkills.join(', ')}`);

  heading(`2. Route the task: "${task}"`);
  const routed = runtime.route(task);
  for (const candidate of routed.ranked.slice(0, 3))
    console.log(`   ${candidate.name.padEnd(14)} score ${candidate.score.toFixed(2)}`);
  console.log(`   selected: ${routed.selected.join(', ') || '(none)'}`);

  heading('3. Activate them, as the model would (skillhost_activate)');
  for (const name of routed.selected) {
    const result = await runtime.callTool('skillhost_activate', { name });
    if (result.isError) console.log(`   ${name}: ${result.text}`);
    else if (result.data.alreadyActive)
      console.log(`   ${name}: already active (the agent preloaded it)`);
    else
      console.log(
        `   ${name}: ${result.text.length} characters of instructions; files: ${result.data.files.join(', ')}`,
      );
  }

  heading('4. Read a resource (skillhost_read csv-summary assets/sample.csv)');
  const resource = await runtime.callTool('skillhost_read', {
    name: 'csv-summary',
    path: 'assets/sample.csv',
  });
  console.log(indent(resource.text, 4));

  heading('5. Run a script in the sandbox (skillhost_run csv-summary scripts/summarise.mjs)');
  const sandbox = probeBubblewrap();
  console.log(`   sandbox: ${sandbox.reason}`);
  if (!runtime.offered().some((entry) => entry.name === 'csv-summary'))
    console.log('   (csv-summary is not available)');
  else {
    if (!routed.selected.includes('csv-summary'))
      await runtime.callTool('skillhost_activate', { name: 'csv-summary' });
    const run = await runtime.callTool('skillhost_run', {
      name: 'csv-summary',
      script: 'scripts/summarise.mjs',
      args: ['/skill/assets/sample.csv'],
    });
    console.log(indent(run.text));
    if (!run.isError)
      console.log(
        `   approved by ${run.data.approvedBy}, sha256 ${run.data.contentHash.slice(0, 16)}…`,
      );
  }

  heading(
    "5b. A script that needs the project's .venv and writes a report (figures-report scripts/report.py)",
  );
  if (!venvReady) console.log('   (skipped: no python3 to make the project .venv)');
  else {
    await runtime.callTool('activate_skill', { name: 'figures-report' });
    const report = await runtime.callTool('run_skill_script', {
      name: 'figures-report',
      script: 'scripts/report.py',
      args: ['cities.csv'],
    });
    console.log(indent(report.text, 6));
    for (const file of report.data?.written?.files ?? [])
      console.log(`   the report ${file.path} went to ${file.location}`);
  }

  heading('6. The assembled prompt, with token counts (o200k)');
  console.log(indent(agent.systemPrompt, 8));
  console.log(indent(agent.catalog, 6));
  console.log(`   instructions.md ${agent.tokens.instructions}`);
  for (const [name, count] of Object.entries(agent.tokens.skills))
    console.log(`   skill ${name} ${count}`);
  console.log(`   catalog ${agent.tokens.catalog}`);
  console.log(`   total ${agent.tokens.total} of ${agent.contextBudget} (context_budget)`);
} finally {
  await runtime.close();
  sink.close();
}

heading(`7. The audit trail (${auditPath})`);
const log = parseAuditLog(readAuditLogFile(auditPath));
for (const record of log.records) {
  const calls = record.tool_or_script_calls.map((call) =>
    `${call.script ?? call.tool ?? ''} ${call.decision ?? ''}`.trim(),
  );
  const parts = [
    `#${record.seq}`,
    record.event,
    record.skill_name ?? '',
    record.triggered_by === null ? '' : `by ${record.triggered_by}`,
    record.loaded_files.length > 0 ? `read ${record.loaded_files.join(', ')}` : '',
    calls.join(', '),
    record.error === null ? '' : `ERROR ${record.error.code}`,
  ];
  console.log(`   ${parts.filter((part) => part !== '').join(' · ')}`);
}
const verdicts = verifyAuditLog(log, sha256);
console.log(
  `   chain: ${verdicts.every((verdict) => verdict.intact) ? 'intact' : 'NOT intact'} (${log.records.length} records)`,
);
console.log(
  keep
    ? `   read it again with: node dist/cli/bin.js audit show --audit-log ${auditPath}`
    : `   ${scratch} is removed now (node examples/main-job.mjs --keep keeps it)`,
);
