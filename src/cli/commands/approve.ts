import { SkillhostError } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { reportSkillError } from '../exit-codes.js';
import { printable } from '../printable.js';
import { JSON_OPTION } from '../registry-options.js';
import { openRuntime, RUNTIME_OPTIONS } from '../runtime-options.js';

export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, {
    ...RUNTIME_OPTIONS,
    ...JSON_OPTION,
    'allow-net': { type: 'boolean' },
  });
  if (args.positionals.length !== 2) throw new UsageError('approve needs a NAME and a SCRIPT');
  const [name, script] = args.positionals as [string, string];
  let opened: ReturnType<typeof openRuntime> | undefined;
  try {
    opened = openRuntime(args, deps, io, { workspace: null });
    const approved = opened.runtime.approveScript(name, script, {
      network: args.options['allow-net'] === true,
    });
    if (args.options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ skill: approved.skill, script: approved.script, contentHash: approved.contentHash, network: args.options['allow-net'] === true }, null, 2)}\n`,
      );
      return 0;
    }
    io.stdout.write(
      `Approved ${printable(approved.script)} of ${printable(approved.skill)}${args.options['allow-net'] === true ? ', with the network,' : ''} for its exact content (sha256 ${approved.contentHash.slice(0, 16)}…): it runs without asking until it changes. skillhost approvals revoke ${printable(name)} ${printable(approved.script)} takes it back.\n`,
    );
    return 0;
  } catch (error) {
    if (SkillhostError.isInstance(error)) return reportSkillError(io.stderr, error);
    throw error;
  } finally {
    await opened?.close();
  }
}
