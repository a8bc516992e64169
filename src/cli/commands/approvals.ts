import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import type { StoredApproval } from '../io.js';
import { printable } from '../printable.js';
import { configFile } from '../registry-options.js';

/** The skill's name in an approval's address (`name@source`). */
const skillName = (approval: StoredApproval) =>
  approval.skill.includes('@')
    ? approval.skill.slice(0, approval.skill.indexOf('@'))
    : approval.skill;

function describe(approval: StoredApproval): string {
  const what =
    approval.kind === 'activation'
      ? 'activation'
      : approval.kind === 'network'
        ? `${approval.script} with the network`
        : approval.script;
  return `${approval.skill}  ${what}  sha256 ${approval.contentHash.slice(0, 16)}…`;
}

export function run({ argv, io, deps }: CommandContext): number {
  const { options, positionals } = parseArgs(argv, { json: { type: 'boolean' } });
  const [action, name, script, ...rest] = positionals;
  const path = configFile(deps);
  const config = deps.readConfig(path);
  const approvals = config.approvals ?? [];
  if (action === 'list') {
    if (name !== undefined) throw new UsageError('approvals list takes no NAME');
    if (options.json === true) io.stdout.write(`${JSON.stringify(approvals, null, 2)}\n`);
    else
      io.stdout.write(
        approvals.map((approval) => `${printable(describe(approval))}\n`).join('') ||
          '(no approvals)\n',
      );
    return 0;
  }
  if (action === 'revoke') {
    if (name === undefined || rest.length > 0)
      throw new UsageError('approvals revoke needs a NAME (a skill), and may take a SCRIPT');
    const matches = (approval: StoredApproval) =>
      (skillName(approval) === name || approval.skill === name || approval.key === name) &&
      (script === undefined || approval.script === script);
    const kept = approvals.filter((approval) => !matches(approval));
    const removed = approvals.length - kept.length;
    deps.writeConfig(path, { ...config, approvals: kept });
    io.stdout.write(`Revoked ${removed} approval${removed === 1 ? '' : 's'}\n`);
    return 0;
  }
  throw new UsageError('approvals needs list or revoke');
}
