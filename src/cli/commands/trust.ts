import { PROJECT_SKILL_FOLDERS } from '../../node/index.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { chooseProject, configFile } from '../registry-options.js';
import { trustSkill } from './trust-skill.js';

export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, {
    list: { type: 'boolean' },
    revoke: { type: 'boolean' },
    json: { type: 'boolean' },
    skill: { type: 'string' },
  });
  const { options, positionals } = args;
  if (positionals.length > 1) throw new UsageError('trust takes at most one DIR');
  if (options.skill !== undefined) {
    if (positionals.length > 0 || options.list === true)
      throw new UsageError('--skill NAME takes no DIR and no --list');
    return trustSkill(
      String(options.skill),
      options.revoke === true,
      io,
      deps,
      options.json === true,
    );
  }
  if (options.list === true && (options.revoke === true || positionals.length > 0))
    throw new UsageError('--list takes no DIR and no --revoke');
  const json = options.json === true;
  const path = configFile(deps);
  const config = deps.readConfig(path);
  if (options.list === true) {
    const skills = config.trustedSkills ?? [];
    if (json)
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
  // Without DIR, the project the current folder belongs to, as every registry command finds it.
  const requested =
    positionals[0] === undefined
      ? chooseProject({ options: {}, positionals: [], rest: [] }, deps).projectDir
      : deps.resolvePath(deps.cwd, positionals[0]);
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
    io.stdout.write(
      json
        ? `${JSON.stringify({ folder, trusted: false, changed: others.length !== config.trustedProjects.length }, null, 2)}\n`
        : `No longer trusted: ${printable(folder)}\n`,
    );
    return 0;
  }
  const changed = others.length === config.trustedProjects.length;
  if (changed) deps.writeConfig(path, { ...config, trustedProjects: [...others, folder].sort() });
  io.stdout.write(
    json
      ? `${JSON.stringify({ folder, trusted: true, changed }, null, 2)}\n`
      : `Trusted: ${printable(folder)}\nIts project skills (${PROJECT_SKILL_FOLDERS.join(', ')}) now load.\n`,
  );
  return 0;
}
