import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { configFile } from '../registry-options.js';
import { trustSkill } from './trust-skill.js';

export function run({ argv, io, deps }: CommandContext): number {
  const { options, positionals } = parseArgs(argv, {
    list: { type: 'boolean' },
    revoke: { type: 'boolean' },
    json: { type: 'boolean' },
    skill: { type: 'string' },
  });
  if (positionals.length > 1) throw new UsageError('trust takes at most one DIR');
  if (options.skill !== undefined) {
    if (positionals.length > 0 || options.list === true)
      throw new UsageError('--skill NAME takes no DIR and no --list');
    return trustSkill(String(options.skill), options.revoke === true, io, deps);
  }
  const path = configFile(deps);
  const config = deps.readConfig(path);
  if (options.list === true) {
    const skills = config.trustedSkills ?? [];
    if (options.json === true)
      io.stdout.write(
        `${JSON.stringify({ trustedProjects: config.trustedProjects, trustedSkills: skills }, null, 2)}\n`,
      );
    else
      io.stdout.write(
        (config.trustedProjects.map((folder) => `${printable(folder)}\n`).join('') ||
          '(no trusted project folders)\n') +
          skills
            .map(
              (skill) =>
                `skill ${printable(skill.skill)}: ${printable(skill.directory)} (sha256 ${skill.contentHash.slice(0, 12)}…)\n`,
            )
            .join(''),
      );
    return 0;
  }
  const requested = deps.resolvePath(deps.cwd, positionals[0] ?? '.');
  const status = deps.fs.status(requested, true);
  if (status === undefined || status.kind !== 'directory') {
    io.stderr.write(
      `skillhost: error PATH_NOT_FOUND: '${printable(requested)}' is not a directory\n`,
    );
    return 2;
  }
  // Trust is recorded for the real folder, so a link cannot stand in for it later.
  const folder = deps.fs.realPath(requested) ?? requested;
  const others = config.trustedProjects.filter((item) => item !== folder);
  if (options.revoke === true) {
    deps.writeConfig(path, { ...config, trustedProjects: others });
    io.stdout.write(`No longer trusted: ${printable(folder)}\n`);
    return 0;
  }
  if (others.length === config.trustedProjects.length) {
    deps.writeConfig(path, { ...config, trustedProjects: [...others, folder].sort() });
  }
  io.stdout.write(
    `Trusted: ${printable(folder)}\nIts project skills (.agents/skills, .skillhost/skills, .claude/skills) now load.\n`,
  );
  return 0;
}
