import { hasDifferences } from '../../internal.js';
import {
  compareFiles,
  hashSkillFolder,
  SkillhostError,
  withLockedSkill,
} from '../../node/index.js';
import { createStaging, removeFolder } from '../../node/internal.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { displayPath, printable } from '../format.js';
import { INSTALL_OPTIONS, installRecord, openInstallAudit, writeLock } from '../install-flow.js';
import { findInstalled, readLock } from '../installed.js';
import { configFile } from '../registry-options.js';

/** `skillhost remove NAME`: deletes an installed skill's folder and its lockfile entry. */
export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, { ...INSTALL_OPTIONS, force: { type: 'boolean' } });
  if (args.positionals.length !== 1) throw new UsageError('remove takes exactly one NAME');
  const { options } = args;
  if (options.project === true && options.user === true)
    throw new UsageError('--user and --project cannot be given together');
  const name = args.positionals[0] as string;
  const found = findInstalled(
    name,
    deps,
    options.user === true ? 'user' : options.project === true ? 'project' : undefined,
  );
  if (found === undefined)
    throw new SkillhostError(
      'SKILL_NOT_INSTALLED',
      `No skill named ${JSON.stringify(printable(name))} in the project's or your skills-lock.json: skillhost removes only skills it installed`,
    );
  const { scope, directory, entry } = found;
  const present = hashSkillFolder(directory);
  const modified = present !== undefined && hasDifferences(compareFiles(entry.files, present));
  if (modified && options.force !== true)
    throw new SkillhostError(
      'SKILL_MODIFIED',
      `${directory} has local changes that removing would lose; --force removes it anyway`,
    );
  const realDirectory = deps.fs.realPath(directory) ?? directory;
  const audit = openInstallAudit(args, deps, 'remove');
  try {
    audit.record(
      installRecord('skill-remove', name, entry, { command: 'remove', directory }, deps),
    );
    const aside = createStaging(scope.skillsFolder);
    try {
      removeFolder(directory, aside.directory);
    } finally {
      aside.dispose();
    }
    writeLock(scope, withLockedSkill(readLock(scope, deps).lockfile, name, undefined));
  } finally {
    audit.close();
  }
  const path = configFile(deps);
  const config = deps.readConfig(path);
  // Trust in the removed folder goes with it: a skill installed there later is asked about anew.
  const trusted = (config.trustedSkills ?? []).filter(
    (skill) => skill.directory !== realDirectory && skill.directory !== directory,
  );
  if (trusted.length !== (config.trustedSkills ?? []).length)
    deps.writeConfig(path, { ...config, trustedSkills: trusted });
  if (options.json === true)
    io.stdout.write(
      `${JSON.stringify({ removed: name, directory, lockfile: scope.lockfile, modified }, null, 2)}\n`,
    );
  else
    io.stdout.write(
      `Removed ${printable(name)} (${printable(displayPath(directory, deps.cwd))}${present === undefined ? ', its folder was already gone' : ''}) and its entry in ${printable(displayPath(scope.lockfile, deps.cwd))}.\n`,
    );
  return 0;
}
