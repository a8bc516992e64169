import { type AuditRecord, parseAuditLog, verifyAuditLog } from '../../node/index.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../printable.js';
import { auditLogPath } from '../registry-options.js';

function describe(record: AuditRecord): string {
  const parts = [`${record.timestamp} #${record.seq} ${record.event}`];
  if (record.skill_name !== null)
    parts.push(`skill ${record.skill_name}${record.source === null ? '' : `@${record.source}`}`);
  else if (record.source !== null) parts.push(`source ${record.source}`);
  const details = record.details as Record<string, unknown>;
  if (record.event === 'skill-discover') {
    const counts = ['active', 'shadowed', 'skipped', 'untrusted']
      .filter((status) => typeof details[status] === 'number' && details[status] !== 0)
      .map((status) => `${String(details[status])} ${status}`);
    parts.push(
      `${String(details.skills ?? 0)} skills${counts.length === 0 ? '' : ` (${counts.join(', ')})`} in ${String(details.root ?? '?')}`,
    );
  }

  if (record.triggered_by !== null) parts.push(`by ${record.triggered_by}`);
  if (record.content_hash !== null) parts.push(`sha256 ${record.content_hash.slice(0, 12)}`);
  if (record.loaded_files.length > 0)
    parts.push(`read ${record.loaded_files.map((file) => JSON.stringify(file)).join(', ')}`);
  for (const call of record.tool_or_script_calls as Array<Record<string, unknown>>) {
    const subject = call.script ?? call.tool ?? '?';
    const outcome = call.exit_code !== undefined ? ` exit ${String(call.exit_code)}` : '';
    parts.push(
      `${String(subject)}${call.decision === undefined ? '' : ` ${String(call.decision)}`}${outcome}${call.sandbox === undefined ? '' : ` (${String(call.sandbox)})`}`,
    );
  }
  const reason = details.reason;
  if (typeof reason === 'string') parts.push(`— ${reason}`);
  if (record.error !== null)
    parts.push(`ERROR ${record.error.code}: ${String(record.error.message)}`);
  return printable(parts.join(' · '));
}

export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, {
    'audit-log': { type: 'string' },
    session: { type: 'string' },
    json: { type: 'boolean' },
    lines: { type: 'string', short: 'n' },
  });
  const [action, ...extra] = args.positionals;
  if (!['show', 'tail', 'verify'].includes(action ?? '') || extra.length > 0) {
    throw new UsageError('usage: skillhost audit show|tail|verify [--session ID] [--json]');
  }
  const path = auditLogPath(args, deps);
  const log = parseAuditLog(deps.readText(path));
  const session = args.options.session === undefined ? undefined : String(args.options.session);
  let records =
    session === undefined
      ? [...log.records]
      : log.records.filter((record) => record.session_id === session);
  if (action === 'verify') {
    const verdicts = verifyAuditLog(log, deps.hash).filter(
      (verdict) => session === undefined || verdict.session === session,
    );
    const intact = verdicts.every((verdict) => verdict.intact) && log.problems.length === 0;
    if (args.options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ log: path, intact, ...(intact ? {} : { code: 'AUDIT_INVALID' }), problems: log.problems, sessions: verdicts }, null, 2)}\n`,
      );
    } else {
      const lines = [
        `${printable(path)}: ${log.records.length} records in ${verdicts.length} sessions`,
      ];
      for (const problem of log.problems)
        lines.push(`  line ${problem.line}: ${problem.kind}: ${problem.message}`);
      for (const verdict of verdicts) {
        lines.push(
          `  ${verdict.session}: ${verdict.records} records, ${verdict.intact ? 'intact' : 'NOT INTACT'}`,
        );
        for (const problem of verdict.problems) lines.push(`    ${problem}`);
      }
      lines.push(
        intact
          ? 'Audit log intact.'
          : 'error AUDIT_INVALID: the audit log is NOT intact: records were altered, removed, reordered, or cut short.',
      );
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return intact ? 0 : 1;
  }
  if (action === 'tail') {
    const count = integerOption(args.options.lines, 'lines', 20);
    records = records.slice(-count);
  }
  if (args.options.json === true) {
    io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  } else {
    const lines = records.map(describe);
    if (lines.length === 0) lines.push(`(no audit records in ${printable(path)})`);
    for (const problem of log.problems)
      lines.push(`line ${problem.line}: ${problem.kind}: ${problem.message}`);
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
