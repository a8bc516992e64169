import { isValidSkillFolderName } from '../../internal.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { configFile } from '../registry-options.js';

/** Switches a skill name on or off in the user config (`disabledSkills`). */
export function setSkillEnabled({ argv, io, deps }: CommandContext, enabled: boolean): number {
  const command = enabled ? 'enable' : 'disable';
  const args = parseArgs(argv, { json: { type: 'boolean' } });
  if (args.positionals.length !== 1) throw new UsageError(`${command} takes exactly one NAME`);
  const name = args.positionals[0] as string;
  if (!isValidSkillFolderName(name))
    throw new UsageError(`'${printable(name)}' is not a skill name`);
  const path = configFile(deps);
  const config = deps.readConfig(path);
  const before = config.disabledSkills ?? [];
  const after = enabled
    ? before.filter((item) => item !== name)
    : [...new Set([...before, name])].sort();
  const changed = after.length !== before.length;
  if (changed) deps.writeConfig(path, { ...config, disabledSkills: after });
  if (args.options.json === true)
    io.stdout.write(`${JSON.stringify({ skill: name, disabled: !enabled, changed }, null, 2)}\n`);
  else
    io.stdout.write(
      enabled
        ? `${changed ? 'Enabled' : 'Not disabled'}: ${printable(name)}${changed ? ' is offered again.' : ''}\n`
        : `${changed ? 'Disabled' : 'Already disabled'}: ${printable(name)} is listed as disabled and never offered (skillhost enable ${printable(name)}).\n`,
    );
  return 0;
}

export function run(context: CommandContext): number {
  return setSkillEnabled(context, true);
}
