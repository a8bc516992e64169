import {
  parseSession,
  readSession,
  type SessionState,
  sessionStore,
} from '../commands/session-log.js';
import { callAnchor, decisionsByCall, readAuditTrail, recordAnchor } from './audit-page.js';
import { type ChartCompaction, type ChartPoint, contextChart } from './chart.js';
import type { UiContext } from './context.js';
import { count, type Html, html, link, page } from './html.js';
import { offeredSkills } from './offered.js';
import type { PageResult } from './server.js';

type Event = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function short(value: string, length = 160): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}

/** Every saved session, newest first, with its agent, model and how it ended. */
export function sessionsPage(context: UiContext): PageResult {
  const store = sessionStore(context.deps);
  const rows = (store?.list() ?? []).map((file) => {
    try {
      const state = parseSession(file.id, store?.read(file.id) ?? '');
      const end = [...state.events].reverse().find((event) => event.type === 'end');
      const requests = state.events.filter((event) => event.type === 'step').length;
      return html`<tr><td><a href="${link(context.token, `/sessions/${file.id}`)}">${file.id}</a></td><td>${file.modified.toISOString().slice(0, 19).replace('T', ' ')}</td><td>${state.agent}</td><td>${state.provider} ${state.model}</td><td class="num">${state.runs}</td><td class="num">${requests}</td><td class="num">${state.compactions}</td><td>${end === undefined ? html`<span class="tag ask">running</span>` : html`<span class="tag ${end.status === 'done' ? 'allow' : 'deny'}">${text(end.status)}</span>`}</td><td><a href="${link(context.token, '/audit', { session: file.id })}">audit</a></td></tr>`;
    } catch (error) {
      return html`<tr><td>${file.id}</td><td colspan="8" class="bad">unreadable: ${error instanceof Error ? error.message : String(error)}</td></tr>`;
    }
  });
  const body = html`<h1>Sessions</h1>
${store === undefined ? html`<p>Sessions are not kept here.</p>` : html`<p class="dim">in <code>${store.directory}</code></p>`}
<table id="sessions"><thead><tr><th>session</th><th>modified (UTC)</th><th>agent</th><th>model</th><th class="num">runs</th><th class="num">requests</th><th class="num">compactions</th><th>status</th><th></th></tr></thead><tbody>${rows}</tbody></table>
${rows.length === 0 ? html`<p>No sessions yet: <code>skillhost agent run</code> and <code>skillhost chat</code> keep theirs here.</p>` : ''}`;
  return {
    status: 200,
    html: page({
      title: 'Sessions',
      section: 'sessions',
      token: context.token,
      home: context.deps.homeDir,
      body,
    }),
  };
}

/** What the policy and the user made of each tool call, by its id. */
function decisions(events: readonly Event[]): Map<string, Html> {
  const asked = new Map<string, Event>();
  const answers = new Map<string, Event>();
  for (const event of events) {
    if (event.type === 'approval-request' && typeof event.toolCallId === 'string')
      asked.set(event.toolCallId, event);
    if (event.type === 'approval-decision') answers.set(text(event.id), event);
  }
  const result = new Map<string, Html>();
  for (const event of events) {
    if (event.type !== 'tool-result') continue;
    const id = text(event.id);
    const request = asked.get(id);
    const answer = request === undefined ? undefined : answers.get(text(request.id));
    if (request !== undefined) {
      const approved = answer?.decision === 'once' || answer?.decision === 'session';
      result.set(
        id,
        html`<span class="tag ask">ask</span> → <span class="tag ${approved ? 'allow' : 'deny'}">${answer === undefined ? 'no answer' : text(answer.decision)}</span> <span class="dim">by ${text(answer?.by)}${answer?.reason ? `: ${text(answer.reason)}` : ''}</span>`,
      );
    } else if (event.code === 'PERMISSION_DENIED')
      result.set(
        id,
        html`<span class="tag deny">deny</span> <span class="dim">${short(text(event.text), 240)}</span>`,
      );
    else result.set(id, html`<span class="tag allow">allow</span>`);
  }
  return result;
}

/** One row of the timeline for an event, or undefined for the events it does not show. */
function row(
  event: Event,
  decided: Map<string, Html>,
  results: Map<string, Event>,
  turn: () => Html,
  compaction: () => string,
  audited: (callId: string) => Html,
): Html | undefined {
  const when = html`<td>${text(event.time).slice(11, 19)}</td>`;
  switch (event.type) {
    case 'start':
      return html`<tr class="turn">${when}<td><strong>turn</strong></td><td colspan="3">${turn()} <span class="dim">${text(event.provider)} ${text(event.model)}</span></td></tr>`;
    case 'step':
      return html`<tr class="request">${when}<td>request ${String(event.step)}</td><td colspan="3">${number(event.contextTokens) === undefined ? '' : html`${count(number(event.contextTokens) as number)} tokens in context`}${number(event.contextWindow) === undefined ? '' : html` <span class="dim">of ${count(number(event.contextWindow) as number)}</span>`}</td></tr>`;
    case 'usage': {
      const usage = (event.usage ?? {}) as Event;
      return html`<tr class="usage">${when}<td class="dim">tokens</td><td colspan="3">in ${count(number(usage.inputTokens) ?? 0)}, out ${count(number(usage.outputTokens) ?? 0)}, cache read ${count(number(usage.cacheReadTokens) ?? 0)}, cache write ${count(number(usage.cacheWriteTokens) ?? 0)} <span class="dim">(${text(event.finishReason)})</span></td></tr>`;
    }
    case 'tool-call': {
      const id = text(event.id);
      const result = results.get(id);
      return html`<tr class="tool-call" id="${callAnchor(id)}">${when}<td>tool call</td><td><code>${text(event.name)}</code> <span class="dim">${short(JSON.stringify(event.input ?? null))}</span></td><td>${decided.get(id) ?? html`<span class="tag ask">pending</span>`}${audited(id)}</td><td>${result === undefined ? '' : html`${result.isError === true ? html`<span class="bad">error${result.code === null ? '' : ` ${text(result.code)}`}</span>` : html`<span class="ok">ok</span>`} ${count(number(result.bytes) ?? 0)} bytes`}</td></tr>`;
    }
    case 'skill-state':
      return html`<tr class="skill-state">${when}<td>skill</td><td colspan="3"><strong>${text(event.skill)}</strong> <span class="tag ${text(event.state)}">${text(event.state)}</span> ${SKILL_REASONS[text(event.reason)] ?? text(event.reason)} <span class="dim">${count(number(event.tokens) ?? 0)} tokens, sha256 ${text(event.hash).slice(0, 12)}</span></td></tr>`;
    case 'compaction':
      return html`<tr class="compaction">${when}<td><strong>compaction ${compaction()}</strong></td><td colspan="3">${text(event.trigger)}: ${number(event.preTokens) === undefined ? '?' : count(number(event.preTokens) as number)} → ${number(event.postTokens) === undefined ? '?' : count(number(event.postTokens) as number)} tokens${number(event.pruned) === undefined ? '' : `, ${String(event.pruned)} tool outputs pruned`}${event.summarized === true ? ', summarised' : ''}${list(' kept', event.kept)}${list(' truncated', event.truncated)}${list(' demoted', event.demoted)}</td></tr>`;
    case 'retry':
    case 'model-switch':
    case 'warning':
    case 'error':
      return html`<tr class="${text(event.type)}">${when}<td class="warn">${text(event.type)}</td><td colspan="3">${text(event.code)} ${short(text(event.message), 240)}</td></tr>`;
    case 'end':
      return html`<tr class="end">${when}<td><strong>end</strong></td><td colspan="3"><span class="tag ${event.status === 'done' ? 'allow' : 'deny'}">${text(event.status)}</span> after ${String(event.steps)} steps${event.reason ? html` <span class="dim">${short(text(event.reason), 240)}</span>` : ''}</td></tr>`;
    default:
      return undefined;
  }
}

const SKILL_REASONS: Readonly<Record<string, string>> = {
  activate: 'activated',
  reactivate: 're-activated',
  changed: 're-activated (its content changed)',
  compaction: 'at a compaction',
};

function list(label: string, value: unknown): string {
  return Array.isArray(value) && value.length > 0 ? `;${label}: ${value.join(', ')}` : '';
}

/** The chart's points (one per request) and compactions (before the request that followed). */
export function chartData(events: readonly Event[]) {
  const points: ChartPoint[] = [];
  const compactions: ChartCompaction[] = [];
  let window: number | undefined;
  let threshold: number | undefined;
  let pending: Event[] = [];
  const usage = new Map<number, number>();
  for (const event of events)
    if (event.type === 'usage')
      usage.set(number(event.step) ?? 0, number((event.usage as Event)?.inputTokens) ?? 0);
  for (const event of events) {
    if (event.type === 'compaction') pending.push(event);
    if (event.type !== 'step') continue;
    const step = points.length + 1;
    window = number(event.contextWindow) ?? window;
    threshold = number(event.compactThreshold) ?? threshold;
    points.push({
      step,
      tokens: number(event.contextTokens) ?? usage.get(number(event.step) ?? 0) ?? 0,
    });
    for (const compaction of pending)
      compactions.push({
        beforeStep: step,
        preTokens: number(compaction.preTokens) ?? null,
        postTokens: number(compaction.postTokens) ?? null,
      });
    pending = [];
  }
  return { points, compactions, window, threshold };
}

/** The user's words of each turn, in order (tasks, not tool results). */
function tasks(state: SessionState): string[] {
  return state.transcript
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : (message.content as Event[]).map((part) => text(part.text)).join(''),
    );
}

/** One session: its chart, its compactions, its timeline, followed live while it runs. */
export function sessionPage(context: UiContext, id: string): PageResult {
  const store = sessionStore(context.deps);
  if (store === undefined) return { status: 404, message: 'Sessions are not kept here' };
  let state: SessionState;
  try {
    state = readSession(store, id);
  } catch (error) {
    return { status: 404, message: error instanceof Error ? error.message : String(error) };
  }
  const events = state.events;
  const results = new Map<string, Event>();
  for (const event of events) if (event.type === 'tool-result') results.set(text(event.id), event);
  const decided = decisions(events);
  const words = tasks(state);
  let turns = 0;
  const turn = () => {
    turns += 1;
    return html`${turns}: ${short(words[turns - 1] ?? '', 200)}`;
  };
  // Numbered as the chart's markers are (C1, C2, …: the compaction events in order).
  let compacted = 0;
  const compaction = () => {
    compacted += 1;
    return `C${compacted}`;
  };
  // The audit trail's decisions on each call (their records name the call's id), linked.
  const byCall = decisionsByCall(readAuditTrail(context).records, state.id);
  const audited = (callId: string): Html => {
    const records = byCall.get(callId) ?? [];
    return records.length === 0
      ? html``
      : html` <span class="dim decision-records">(audit ${records.map((record, index) => html`${index === 0 ? '' : ', '}<a href="${`${link(context.token, '/audit', { session: state.id })}#${recordAnchor(record)}`}">${record.event} #${record.seq}</a>`)})</span>`;
  };
  const rows = events
    .map((event) => row(event, decided, results, turn, compaction, audited))
    .filter((item) => item !== undefined);
  const chart = chartData(events);
  const compactions = events.filter((event) => event.type === 'compaction');
  const calls = [...decided.values()].length;
  const end = [...events].reverse().find((event) => event.type === 'end');
  const body = html`<h1>Session ${state.id}</h1>
<div class="summary"><div>agent ${state.agent}</div><div>${state.provider} ${state.model}</div><div>created ${state.created}</div><div>${state.runs} run${state.runs === 1 ? '' : 's'}</div><div>${chart.points.length} requests</div><div>${calls} tool calls</div><div>${compactions.length} compactions</div><div>${end === undefined ? html`<span class="tag ask">running</span>` : html`<span class="tag ${end.status === 'done' ? 'allow' : 'deny'}">${text(end.status)}</span>`}</div><div><a href="${link(context.token, '/audit', { session: state.id })}">audit trail</a></div></div>
${offeredSkills(context, state)}
<h2>Context per request</h2>
${contextChart(chart)}
${
  compactions.length === 0
    ? ''
    : html`<h2>Compactions</h2><table id="compactions"><thead><tr><th></th><th>trigger</th><th class="num">before</th><th class="num">after</th><th class="num">window</th><th>skills kept / truncated / demoted</th></tr></thead><tbody>${compactions.map(
        (event, index) =>
          html`<tr><td>C${index + 1}</td><td>${text(event.trigger)}</td><td class="num">${percent(number(event.preTokens), chart.window)}</td><td class="num">${percent(number(event.postTokens), chart.window)}</td><td class="num">${chart.window === undefined ? '?' : count(chart.window)}</td><td>${names(event.kept)} / ${names(event.truncated)} / ${names(event.demoted)}</td></tr>`,
      )}</tbody></table>`
}
<h2>Timeline</h2>
<table class="timeline" id="timeline"><tbody>${rows}</tbody></table>`;
  return {
    status: 200,
    html: page({
      title: `Session ${state.id}`,
      section: 'sessions',
      token: context.token,
      home: context.deps.homeDir,
      body,
      live: link(context.token, `/sessions/${state.id}/events`),
    }),
  };
}

function names(value: unknown): string {
  return Array.isArray(value) && value.length > 0 ? value.join(', ') : '—';
}

function percent(tokens: number | undefined, window: number | undefined): string {
  if (tokens === undefined) return '?';
  return window === undefined || window === 0
    ? count(tokens)
    : `${count(tokens)} (${Math.round((tokens / window) * 100)}%)`;
}
