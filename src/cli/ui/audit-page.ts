import {
  type AuditLogFile,
  type AuditRecord,
  parseAuditLog,
  verifyAuditFiles,
} from '../../node/index.js';
import { describe, logFiles } from '../commands/audit.js';
import { auditLogPath } from '../registry-options.js';
import type { UiContext } from './context.js';
import { html, link, page } from './html.js';
import type { PageResult } from './server.js';

/** The audit log's files and their records, read with `audit`'s readers. */
export function readAuditTrail(context: UiContext) {
  const path = auditLogPath(context.args, context.deps);
  const files: AuditLogFile[] = logFiles(path, context.deps).map((file) => ({
    name: file,
    text: context.deps.readText(file),
  }));
  return { path, files, records: files.flatMap((file) => parseAuditLog(file.text).records) };
}

/** The model's id of the tool call a permission record was about (`tool_call_id`), if any. */
export function toolCallIdOf(record: AuditRecord): string | undefined {
  if (record.event !== 'permission-decide' && record.event !== 'permission-approve')
    return undefined;
  for (const call of record.tool_or_script_calls)
    if (
      typeof call === 'object' &&
      call !== null &&
      typeof (call as Record<string, unknown>).tool_call_id === 'string'
    )
      return (call as Record<string, unknown>).tool_call_id as string;
  return undefined;
}

/** The permission records of an agent session's runs, by the tool call they were about. */
export function decisionsByCall(
  records: readonly AuditRecord[],
  agentSession: string,
): Map<string, AuditRecord[]> {
  const sessions = auditSessionsOf(records, agentSession);
  const byCall = new Map<string, AuditRecord[]>();
  for (const record of records) {
    if (!sessions.has(record.session_id)) continue;
    const id = toolCallIdOf(record);
    if (id !== undefined) byCall.set(id, [...(byCall.get(id) ?? []), record]);
  }
  return byCall;
}

/** Where a tool call is on its session's page (its timeline row's id). */
export function callAnchor(id: string): string {
  return `call-${id}`;
}

/** Where a record is on the Audit page (its row's id). */
export function recordAnchor(record: AuditRecord): string {
  return `record-${record.session_id}-${record.seq}`;
}

/** The audit sessions of an agent session: those whose `agent-start` names it. */
function auditSessionsOf(records: readonly AuditRecord[], agentSession: string): Set<string> {
  const sessions = new Set<string>();
  for (const record of records)
    if (
      record.event === 'agent-start' &&
      (record.details as Record<string, unknown>).session === agentSession
    )
      sessions.add(record.session_id);
  return sessions;
}

/**
 * The audit trail: each session's chain, verified as `skillhost audit verify` verifies it (its
 * first broken link named), and the records of the chosen session in order. `session` is an
 * agent session's id (its runs' audit sessions are shown) or an audit session's id.
 */
export function auditPage(context: UiContext, query: URLSearchParams): PageResult {
  const { path, files, records } = readAuditTrail(context);
  const verdict = verifyAuditFiles(files, context.deps.hash);
  const chosen = query.get('session') ?? '';
  const agentSessions = chosen === '' ? new Set<string>() : auditSessionsOf(records, chosen);
  const wanted = agentSessions.size > 0 ? agentSessions : new Set(chosen === '' ? [] : [chosen]);
  const chains = verdict.sessions.filter((chain) => wanted.size === 0 || wanted.has(chain.session));
  const intact = verdict.problems.length === 0 && chains.every((chain) => chain.intact);
  const shown =
    wanted.size === 0
      ? []
      : records.filter((record) => record.event !== 'log-rotate' && wanted.has(record.session_id));
  const body = html`<h1>Audit</h1>
<div class="summary"><div><code>${path}</code>${files.length > 1 ? ` and ${files.length - 1} rotated` : ''}</div><div>${verdict.records} records in ${verdict.sessions.length} sessions</div><div id="audit-verdict"><span class="tag ${intact ? 'intact' : 'broken'}">${intact ? 'chain verified: intact' : 'NOT intact'}</span></div>${chosen === '' ? '' : html`<div>session ${chosen}${agentSessions.size > 0 ? ` (${agentSessions.size} run${agentSessions.size === 1 ? '' : 's'})` : ''}</div>`}</div>
${verdict.problems.map((problem) => html`<div class="bad">${problem.file} line ${problem.line}: ${problem.kind}: ${problem.message}</div>`)}
<h2>Chains</h2>
<table id="chains"><thead><tr><th>audit session</th><th class="num">records</th><th>first</th><th>last</th><th>verification</th><th>first broken link</th></tr></thead><tbody>
${chains.map(
  (chain) =>
    html`<tr><td><a href="${link(context.token, '/audit', { session: chain.session })}">${chain.session}</a></td><td class="num">${chain.records}</td><td>${chain.first ?? ''}</td><td>${chain.last ?? ''}</td><td><span class="tag ${chain.intact ? 'intact' : 'broken'}">${chain.intact ? 'intact' : 'not intact'}</span>${chain.continued ? html` <span class="dim">continues from a log no longer kept</span>` : ''}</td><td>${chain.problems[0] ?? '—'}${chain.problems.length > 1 ? html` <span class="dim">(+${chain.problems.length - 1} more)</span>` : ''}</td></tr>`,
)}
</tbody></table>
${
  wanted.size === 0
    ? html`<p class="dim">Choose a session to see its records.</p>`
    : html`<h2>Records</h2><table id="records"><thead><tr><th class="num">seq</th><th>event</th><th>record</th></tr></thead><tbody>${shown.map(
        (record) => {
          const call = agentSessions.size > 0 ? toolCallIdOf(record) : undefined;
          return html`<tr id="${recordAnchor(record)}"><td class="num">${record.seq}</td><td><code>${record.event}</code></td><td>${describe(record)}${call === undefined ? '' : html` <a class="tool-call-link" href="${`${link(context.token, `/sessions/${chosen}`)}#${callAnchor(call)}`}">tool call ${call}</a>`}</td></tr>`;
        },
      )}</tbody></table>`
}`;
  return {
    status: 200,
    html: page({
      title: 'Audit',
      section: 'audit',
      token: context.token,
      home: context.deps.homeDir,
      body,
    }),
  };
}
