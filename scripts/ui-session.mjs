// A session of the example code-analyst agent for `skillhost ui` to show: `skillhost agent run`
// against the scripted local model (examples/scripted-model.mjs, on 127.0.0.1), with a small
// context window so that the conversation is compacted, a catalog under a budget, a call the user
// approves (--yes) and one a --deny rule refuses. Used by `npm run ui:screenshots` and the browser tests.
//   node scripts/ui-session.mjs HOME   → writes HOME/.skillhost (sessions, audit log); prints the session id

import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { messageEvents, startScriptedModel } from '../examples/scripted-model.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples');
const bin = join(root, 'dist', 'cli', 'bin.js');

/** The calls of the session, in order; after them, the model answers. */
export const SESSION_CALLS = [
  { name: 'skillhost_search', input: { query: 'summarise a CSV file and review code quality' } },
  { name: 'skillhost_activate', input: { name: 'csv-summary' } },
  { name: 'skillhost_read', input: { name: 'code-analysis', path: 'references/checklist.md' } },
  { name: 'workspace_read', input: { path: 'csv-summary/SKILL.md' } },
  { name: 'workspace_read', input: { path: 'figures-report/SKILL.md' } },
  // Asks; --yes answers "once".
  { name: 'workspace_bash', input: { command: 'ls */SKILL.md | wc -l' } },
  // Refused by --deny 'Bash(rm:*)'.
  { name: 'workspace_bash', input: { command: 'rm -rf figures-report' } },
  { name: 'skillhost_activate', input: { name: 'figures-report' } },
  { name: 'skillhost_activate', input: { name: 'release-notes' } },
  { name: 'workspace_read', input: { path: 'release-notes/SKILL.md' } },
  { name: 'workspace_read', input: { path: 'code-analysis/SKILL.md' } },
  // Demoted by the second compaction by now: activated again, by its hash.
  { name: 'skillhost_activate', input: { name: 'csv-summary' } },
];

/**
 * The scripted model: a summary when asked for one (a request without tools), else the next
 * call of SESSION_CALLS, then an answer. It counts its own requests, as the compaction replaces
 * the history it could count from.
 */
function scriptedTurns() {
  let next = 0;
  return (body) => {
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      const text =
        'SUMMARY (scripted): the user asked for a review of the example skills; csv-summary was activated, the checklist and skill files read, one command approved and one refused by a rule.';
      if (body.stream === true) return messageEvents([{ type: 'text', text }], 'end_turn');
      return {
        id: 'msg_scripted_summary',
        type: 'message',
        role: 'assistant',
        model: 'scripted',
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 40 },
      };
    }
    const call = SESSION_CALLS[next];
    next += 1;
    if (call === undefined)
      return messageEvents(
        [
          {
            type: 'text',
            text: 'A scripted model wrote this, not a real one: with a real model, each finding would name a file and a line, following the checklist.',
          },
        ],
        'end_turn',
      );
    // About what a provider would count: the system prompt and tools read from its cache after
    // the first request, the rest as new input.
    const cached = Math.round(JSON.stringify([body.system, body.tools]).length / 4);
    const rest = Math.round(JSON.stringify(body.messages ?? []).length / 4);
    const usage =
      next === 1
        ? { input_tokens: rest, cache_creation_input_tokens: cached, cache_read_input_tokens: 0 }
        : { input_tokens: rest, cache_creation_input_tokens: 0, cache_read_input_tokens: cached };
    return messageEvents([{ type: 'tool_use', id: `toolu_${next}`, ...call }], 'tool_use', usage);
  };
}

/**
 * Runs the session into `home`; resolves with its id. `project` is a folder with the example
 * `skills/` and `agents/` (default: the repository's examples/); the run starts in it when given.
 */
export async function runUiSession(home, options = {}) {
  const project = options.project ?? examples;
  mkdirSync(home, { recursive: true });
  const scripted = await startScriptedModel(scriptedTurns());
  try {
    const env = {
      ...process.env,
      HOME: home,
      SKILLHOST_HOME: join(home, '.skillhost'),
      ANTHROPIC_BASE_URL: scripted.url,
      ANTHROPIC_API_KEY: 'scripted-model-placeholder',
    };
    const args = [
      bin,
      'agent',
      'run',
      '--no-default-sources',
      '--skills',
      join(project, 'skills'),
      '--agents',
      join(project, 'agents'),
      '--workspace',
      join(project, 'skills'),
      '--provider',
      'anthropic',
      '--yes',
      '--deny',
      'Bash(rm:*)',
      '--max-steps',
      '20',
      '--context-window',
      '12000',
      // A catalog under a budget: the session page shows what the model was shown and what was cut.
      '--catalog-budget',
      '150',
      '--json',
      'code-analyst',
      'Review the example skills folder: which files are largest, and what would you check first?',
    ];
    const { code, stdout, stderr } = await new Promise((resolve) => {
      const child = spawn(process.execPath, args, {
        env,
        ...(options.project === undefined ? {} : { cwd: options.project }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('close', (status) => resolve({ code: status ?? 1, stdout: out, stderr: err }));
    });
    const start = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line))
      .find((event) => typeof event.session === 'string');
    if (code !== 0 || start === undefined)
      throw new Error(`agent run failed (exit ${code}): ${stderr.slice(-2000)}`);
    return start.session;
  } finally {
    await scripted.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const home = process.argv[2];
  if (home === undefined) {
    console.error('usage: node scripts/ui-session.mjs HOME');
    process.exit(2);
  }
  console.log(await runUiSession(home));
}
