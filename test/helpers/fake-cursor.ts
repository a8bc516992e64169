import { writeFakeAgent } from './cli-turns.js';

/**
 * A fake of Cursor's CLI in print mode (`agent -p --output-format stream-json`), which cannot be
 * installed here: a node script written at test time. Each run is one turn: it records its argv,
 * its prompt (standard input), and the files of `CURSOR_CONFIG_DIR`, then plays the next turn of
 * the scenario, one action a line: `{ write: MESSAGE }`, `{ sleep: MS }`, `{ stderr: TEXT }`,
 * `{ exit: CODE }`, `{ stubborn: true }` (ignores SIGTERM). `--version` prints `version`.
 */

export interface CursorScenario {
  readonly version?: string;
  readonly turns?: ReadonlyArray<readonly unknown[]>;
}

export interface CursorRun {
  readonly argv: string[];
  readonly prompt: string;
  readonly configDir: string | null;
  readonly files: Record<string, { text: string; mode: number }>;
  readonly pid: number;
}

const SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const scenario = JSON.parse(fs.readFileSync(process.env.FAKE_SCENARIO, 'utf8'));
const recordFile = process.env.FAKE_RECORD;
const argv = process.argv.slice(2);
if (argv.includes('--version')) { process.stdout.write((scenario.version ?? '2026.01.12-abc1234') + '\n'); process.exit(0); }
const runs = fs.existsSync(recordFile) ? JSON.parse(fs.readFileSync(recordFile, 'utf8')) : [];
const dir = process.env.CURSOR_CONFIG_DIR ?? null;
const files = {};
if (dir) for (const name of fs.readdirSync(dir)) {
  const file = path.join(dir, name);
  files[name] = { text: fs.readFileSync(file, 'utf8'), mode: fs.statSync(file).mode & 0o777 };
}
const run = { argv, prompt: '', configDir: dir, files, pid: process.pid };
runs.push(run);
const save = () => fs.writeFileSync(recordFile, JSON.stringify(runs));
save();
const out = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let input = '';
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', async () => {
  run.prompt = input; save();
  const actions = (scenario.turns ?? [])[runs.length - 1] ?? [];
  for (const a of actions) {
    if (a.write) out(a.write);
    else if (a.sleep) await sleep(a.sleep);
    else if (a.stderr) process.stderr.write(a.stderr);
    else if (a.exit !== undefined) process.exit(a.exit);
    else if (a.stubborn) { process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); await new Promise(() => {}); }
  }
  process.exit(0);
});
`;

export function fakeCursor(scenario: CursorScenario) {
  return writeFakeAgent<CursorRun[]>('cursor.cjs', SCRIPT, scenario);
}

/** Cursor's print-mode messages, as the fake writes them. */
export const cursorMessages = {
  init: (extra: Record<string, unknown> = {}) => ({
    type: 'system',
    subtype: 'init',
    apiKeySource: 'login',
    cwd: '/work',
    session_id: 'chat-1',
    model: 'Composer 1',
    permissionMode: 'default',
    ...extra,
  }),
  assistant: (text: string) => ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    session_id: 'chat-1',
  }),
  tool: (subtype: 'started' | 'completed', id: string, call: Record<string, unknown>) => ({
    type: 'tool_call',
    subtype,
    call_id: id,
    tool_call: call,
    session_id: 'chat-1',
  }),
  result: (text: string, extra: Record<string, unknown> = {}) => ({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 10,
    result: text,
    session_id: 'chat-1',
    ...extra,
  }),
};
