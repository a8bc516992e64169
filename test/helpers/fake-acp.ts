import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { writeFakeAgent } from './cli-turns.js';

/**
 * A fake ACP agent for the unit suite (what cannot be installed, like Cursor's CLI, and the edge
 * cases): a node script written at test time on the agent side of the official SDK, playing a
 * scenario and recording what the client sent and answered.
 *
 * Scenario: `authMethods`, `requireAuth` (session/new fails with -32000 until authenticated),
 * `loadSession`, `models` (answered by session/new), `version` (for --version), and `prompts`:
 * for each session/prompt, actions:
 * `{ update }` a session/update; `{ permission: { toolCall, options } }` (the outcome recorded);
 * `{ read: PATH }`, `{ write: [PATH, TEXT] }` (result or error recorded); `{ request: [METHOD, PARAMS] }`;
 * `{ sleep: MS }`; `{ waitCancel: true }` (until session/cancel); `{ fail: [CODE, MESSAGE] }`;
 * `{ exit: CODE }`; the prompt then answers `{ stopReason }` (default end_turn) with `usage`.
 */

export interface AcpScenario {
  readonly authMethods?: readonly unknown[];
  readonly requireAuth?: boolean;
  readonly loadSession?: boolean;
  readonly models?: unknown;
  readonly configOptions?: unknown;
  readonly version?: string;
  readonly prompts?: ReadonlyArray<readonly unknown[]>;
  readonly stopReasons?: readonly string[];
  readonly usage?: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: the record holds arbitrary protocol JSON.
export type AcpRecord = Record<string, any>;

const SCRIPT = String.raw`
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
const acp = await import(process.env.FAKE_ACP_SDK);
const scenario = JSON.parse(readFileSync(process.env.FAKE_SCENARIO, 'utf8'));
const record = { argv: process.argv.slice(2), pid: process.pid, calls: [], prompts: [], answers: [], cancels: 0 };
const save = () => writeFileSync(process.env.FAKE_RECORD, JSON.stringify(record));
if (record.argv.includes('--version')) { process.stdout.write((scenario.version ?? '1.2.3') + '\n'); process.exit(0); }
save();
let authenticated = false;
let promptIndex = 0;
let cancelled;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const app = acp.agent({ name: 'fake' })
  .onRequest('initialize', ({ params }) => { record.calls.push(['initialize', params]); save();
    return { protocolVersion: 1, agentCapabilities: { loadSession: scenario.loadSession === true }, authMethods: scenario.authMethods ?? [], agentInfo: { name: 'fake', version: scenario.version ?? '1.2.3' } }; })
  .onRequest('authenticate', ({ params }) => { record.calls.push(['authenticate', params]); authenticated = true; save(); return {}; })
  .onRequest('session/new', ({ params }) => { record.calls.push(['session/new', params]); save();
    if (scenario.requireAuth && !authenticated) throw new acp.RequestError(-32000, 'Authentication required');
    return { sessionId: 'fake-session-1', modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'yolo', name: 'YOLO' }] }, ...(scenario.models ? { models: scenario.models } : {}), ...(scenario.configOptions ? { configOptions: scenario.configOptions } : {}) }; })
  .onRequest('session/load', ({ params, client }) => { record.calls.push(['session/load', params]); save();
    return client.notify('session/update', { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'REPLAYED' } } }).then(() => ({})); })
  .onRequest('session/set_mode', ({ params }) => { record.calls.push(['session/set_mode', params]); save(); return {}; })
  .onRequest('session/set_model', (x) => x, ({ params }) => { record.calls.push(['session/set_model', params]); save(); return {}; })
  .onNotification('session/cancel', () => { record.cancels += 1; save(); cancelled?.(); })
  .onRequest('session/prompt', async ({ params, client }) => {
    record.prompts.push(params.prompt); save();
    const actions = (scenario.prompts ?? [])[promptIndex] ?? [];
    const stopReason = (scenario.stopReasons ?? [])[promptIndex] ?? 'end_turn';
    promptIndex += 1;
    const sessionId = params.sessionId;
    for (const a of actions) {
      if (a.update) await client.notify('session/update', { sessionId, update: a.update });
      else if (a.permission) { const answer = await client.request('session/request_permission', { sessionId, ...a.permission }); record.answers.push(['permission', answer]); save(); }
      else if (a.read) { try { record.answers.push(['read', await client.request('fs/read_text_file', { sessionId, path: a.read })]); } catch (e) { record.answers.push(['read-error', e.code, e.message]); } save(); }
      else if (a.write) { try { record.answers.push(['write', await client.request('fs/write_text_file', { sessionId, path: a.write[0], content: a.write[1] })]); } catch (e) { record.answers.push(['write-error', e.code, e.message]); } save(); }
      else if (a.request) { try { record.answers.push([a.request[0], await client.request(a.request[0], { sessionId, ...(a.request[1] ?? {}) })]); } catch (e) { record.answers.push([a.request[0] + '-error', e.code, e.message]); } save(); }
      else if (a.sleep) await sleep(a.sleep);
      else if (a.waitCancel) { if (record.cancels === 0) await new Promise((r) => { cancelled = r; }); return { stopReason: 'cancelled' }; }
      else if (a.fail) throw new acp.RequestError(a.fail[0], a.fail[1]);
      else if (a.exit !== undefined) { save(); process.exit(a.exit); }
    }
    return { stopReason, ...(scenario.usage ? { usage: scenario.usage } : {}) };
  });
app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`;

const require = createRequire(import.meta.url);

/** Writes the fake agent; answers its command, its environment and a reader of its record. */
export function fakeAcpAgent(scenario: AcpScenario) {
  return writeFakeAgent<AcpRecord>('agent.mjs', SCRIPT, scenario, {
    FAKE_ACP_SDK: pathToFileURL(require.resolve('@agentclientprotocol/sdk')).href,
  });
}
