import { AuditTrail, sortRotatedLogNames } from '../../internal.js';
import {
  type AuditLogFile,
  type AuditRecord,
  parseAuditLog,
  verifyAuditFiles,
} from '../../node/index.js';
import { baseName, joinPath, parentPath } from '../../paths.js';
import { integerOption, parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import type { CliDeps } from '../io.js';
import { printable } from '../printable.js';
import { auditLogPath } from '../registry-options.js';
import { auditSinkOptions } from '../runtime-options.js';

/** The files of the log at `path`, oldest first: its rotated logs, then the log itself. */
export function logFiles(path: string, deps: CliDeps): string[] {
  const folder = parentPath(path);
  const listing = deps.fs.listDirectory(folder);
  const current = baseName(path);
  const rotated = listing.ok
    ? sortRotatedLogNames(
        current,
        listing.entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name),
      ).map((name) => joinPath(folder, name))
    : [];
  return [...rotated, path];
}

/** A date given on the command line: YYYY-MM-DD (midnight UTC) or a full ISO 8601 time. */
function dateOption(value: unknown): Date {
  const text = String(value);
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime()))
    throw new UsageError(`--before needs a date such as 2026-01-31, got '${text}'`);
  return date;
}

/**
 * `audit prune --before DATE`: removes the rotated logs whose every record is older than DATE
 * (never the current log), and records what it removed in the log itself.
 */
function prune(path: string, before: Date, json: boolean, io: CommandContext['io'], deps: CliDeps) {
  const removed: string[] = [];
  const limit = before.toISOString();
  for (const file of logFiles(path, deps).slice(0, -1)) {
    const last = parseAuditLog(deps.readText(file)).records.at(-1)?.timestamp;
    // The files are in time order: the first holding a newer record ends the pruning.
    if (last !== undefined && last >= limit) break;
    if (deps.removeFile === undefined) throw new UsageError('this host cannot remove files');
    deps.removeFile(file);
    removed.push(file);
  }
  const sink = deps.auditSink(path, auditSinkOptions(deps));
  try {
    const trail = new AuditTrail({
      sink,
      hash: deps.hash,
      now: deps.now,
      sessionId: deps.newSessionId(),
    });
    trail.record({
      event: 'log-prune',
      details: { before: limit, removed: removed.map((file) => baseName(file)) },
    });
    trail.close();
  } finally {
    sink.close();
  }
  if (json) io.stdout.write(`${JSON.stringify({ log: path, before: limit, removed }, null, 2)}\n`);
  else
    io.stdout.write(
      removed.length === 0
        ? `No rotated log of ${printable(path)} holds only records before ${limit}.\n`
        : `Removed ${removed.length} rotated log${removed.length === 1 ? '' : 's'} with records before ${limit}:\n${removed.map((file) => `  ${printable(file)}\n`).join('')}`,
    );
  return 0;
}

export function describe(record: AuditRecord): string {
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
    before: { type: 'string' },
  });
  const [action, ...extra] = args.positionals;
  if (!['show', 'tail', 'verify', 'prune'].includes(action ?? '') || extra.length > 0) {
    throw new UsageError(
      'usage: skillhost audit show|tail|verify [--session ID] [--json], or skillhost audit prune --before DATE',
    );
  }
  if ((action === 'prune') !== (args.options.before !== undefined))
    throw new UsageError('--before goes with prune, and prune needs --before DATE');
  const path = auditLogPath(args, deps);
  if (action === 'prune')
    return prune(path, dateOption(args.options.before), args.options.json === true, io, deps);
  const files: AuditLogFile[] = logFiles(path, deps).map((file) => ({
    name: file,
    text: deps.readText(file),
  }));
  const logs = files.map((file) => ({ file: file.name, log: parseAuditLog(file.text) }));
  const log = {
    records: logs.flatMap((item) => item.log.records),
    problems: logs.flatMap((item) =>
      item.log.problems.map((problem) => ({
        ...problem,
        message: files.length > 1 ? `${item.file}: ${problem.message}` : problem.message,
      })),
    ),
  };
  const session = args.options.session === undefined ? undefined : String(args.options.session);
  // The log-rotate records link the files; they are not events of a session.
  let records = log.records.filter(
    (record) =>
      record.event !== 'log-rotate' && (session === undefined || record.session_id === session),
  );
  if (action === 'verify') {
    const verdict = verifyAuditFiles(files, deps.hash);
    const verdicts = verdict.sessions.filter(
      (chain) => session === undefined || chain.session === session,
    );
    const intact = verdict.problems.length === 0 && verdicts.every((chain) => chain.intact);
    if (args.options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ log: path, files: files.map((file) => file.name), intact, ...(intact ? {} : { code: 'AUDIT_INVALID' }), problems: verdict.problems, sessions: verdicts }, null, 2)}\n`,
      );
    } else {
      const rotated = files.length - 1;
      const lines = [
        `${printable(path)}${rotated > 0 ? ` and ${rotated} rotated log${rotated === 1 ? '' : 's'}` : ''}: ${verdict.records} records in ${verdicts.length} sessions`,
      ];
      for (const problem of verdict.problems)
        lines.push(
          `  ${printable(problem.file)} line ${problem.line}: ${problem.kind}: ${problem.message}`,
        );
      for (const chain of verdicts) {
        lines.push(
          `  ${chain.session}: ${chain.records} records, ${chain.intact ? 'intact' : 'NOT INTACT'}${chain.continued ? ' (continues from a log no longer kept)' : ''}`,
        );
        for (const problem of chain.problems) lines.push(`    ${printable(problem)}`);
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
