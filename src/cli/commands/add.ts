import {
  describeSource,
  fetchSkillSource,
  findSourceSkills,
  isExternalSource,
  parseInstallSource,
  SkillhostError,
  withLockedSkill,
} from '../../node/index.js';
import { createStaging, loadYaml, moveIntoPlace } from '../../node/internal.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { displayPath, printable } from '../format.js';
import {
  confirmInstall,
  describePrepared,
  INSTALL_OPTIONS,
  installedTrust,
  installRecord,
  lockEntryOf,
  openInstallAudit,
  type PreparedSkill,
  preparedJson,
  prepareStaged,
  refusalCode,
  sourceLookup,
  writeLock,
} from '../install-flow.js';
import { chooseScope, readLock, recordedFolder, skillFolder } from '../installed.js';
import { configFile } from '../registry-options.js';
import { createStyle } from '../style.js';

const OPTIONS = {
  ...INSTALL_OPTIONS,
  skill: { type: 'string', multiple: true },
  yes: { type: 'boolean' },
  force: { type: 'boolean' },
  submodules: { type: 'boolean' },
} as const;

/** `skillhost add SOURCE`: find, validate, show, ask, install, record. */
export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError('add takes exactly one SOURCE');
  const { options } = args;
  const json = options.json === true;
  const style = createStyle(io.stdout, deps.env);
  let source = parseInstallSource(args.positionals[0] as string, sourceLookup(deps));
  if (options.submodules === true) {
    if (source.type !== 'git') throw new UsageError('--submodules is only for a git source');
    source = { ...source, submodules: true };
  }
  const { scope, projectTrusted } = chooseScope(options, deps, 'install');
  const wanted = (options.skill as readonly string[] | undefined) ?? [];
  const lock = readLock(scope, deps);
  if (!lock.usable)
    throw new SkillhostError(
      'LOCKFILE_INVALID',
      `${scope.lockfile} cannot be read: ${lock.diagnostics[0]?.message ?? ''}`,
    );
  const config = deps.readConfig(configFile(deps));
  const say = (text: string) => {
    if (!json) io.stdout.write(`${text}\n`);
  };
  const fetched = await fetchSkillSource(source, { env: deps.env });
  try {
    const pin = fetched.commit ?? fetched.digest;
    say(
      `Source: ${printable(describeSource(source))}${pin === undefined ? '' : ` (${fetched.commit === undefined ? pin : `commit ${pin}`})`}`,
    );
    const found = findSourceSkills(fetched, deps.fs, loadYaml);
    if (found.skills.length === 0)
      throw new SkillhostError(
        'NO_SKILLS_FOUND',
        `No skill (a folder with a SKILL.md) in ${describeSource(source)}`,
      );
    const unknown = wanted.filter((name) => !found.skills.some((skill) => skill.name === name));
    if (unknown.length > 0)
      throw new UsageError(
        `no skill named ${unknown.map((name) => `'${printable(name)}'`).join(', ')} in the source; it has ${found.skills.map((skill) => printable(skill.name)).join(', ')}`,
      );
    const selected =
      wanted.length === 0
        ? found.skills
        : found.skills.filter((skill) => wanted.includes(skill.name));
    for (const diagnostic of found.diagnostics)
      if (!json)
        io.stderr.write(
          `${diagnostic.severity} ${diagnostic.code}: ${printable(diagnostic.message)}\n`,
        );
    const staging = createStaging(scope.skillsFolder);
    try {
      const staged = selected.map((skill) => staging.stage(skill));
      const prepared = prepareStaged(
        staging,
        staged,
        installedTrust(source, scope, projectTrusted),
        deps,
      );
      const refusals = new Map<string, string>();
      for (const item of prepared) {
        const name = item.staged.skill.name;
        const target = skillFolder(scope, name, deps);
        if (!item.check.valid) refusals.set(name, 'it has errors (strict validation)');
        else if (deps.fs.status(target, false) !== undefined && options.force !== true)
          refusals.set(
            name,
            lock.lockfile.skills[name] === undefined
              ? `${displayPath(target, deps.cwd)} already exists (--force replaces it)`
              : `it is installed already (skillhost update ${name}; --force replaces it)`,
          );
      }
      const installable = prepared.filter((item) => !refusals.has(item.staged.skill.name));
      say(
        `Found ${selected.length} skill${selected.length === 1 ? '' : 's'}; installing into ${printable(scope.skillsFolder)} (${scope.kind}):\n`,
      );
      for (const item of prepared) {
        say(describePrepared(item, style, staging.directory).join('\n'));
        const refusal = refusals.get(item.staged.skill.name);
        if (refusal !== undefined) say(`  ${style.red('refused')}: ${refusal}`);
        say('');
      }
      const report = (installed: readonly PreparedSkill[]) =>
        json &&
        io.stdout.write(
          `${JSON.stringify(
            {
              source,
              ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
              ...(fetched.digest === undefined ? {} : { digest: fetched.digest }),
              scope: scope.kind,
              skillsFolder: scope.skillsFolder,
              lockfile: scope.lockfile,
              skills: prepared.map((item) => ({
                ...preparedJson(item, staging.directory),
                installed: installed.includes(item),
                ...(refusals.has(item.staged.skill.name)
                  ? { refused: refusals.get(item.staged.skill.name) }
                  : {}),
              })),
            },
            null,
            2,
          )}\n`,
        );
      if (installable.length === 0) {
        report([]);
        say('Nothing installed.');
        return 1;
      }
      try {
        await confirmInstall(
          io,
          args,
          `Install ${installable.map((item) => item.staged.skill.name).join(', ')} into ${scope.skillsFolder}?`,
        );
      } catch (error) {
        const code = refusalCode(error);
        if (code === undefined) throw error;
        report([]);
        io.stderr.write(`skillhost: ${printable((error as Error).message)}\n`);
        return code;
      }
      const audit = openInstallAudit(args, deps, 'add');
      let lockfile = lock.lockfile;
      try {
        for (const item of installable) {
          const name = item.staged.skill.name;
          const target = skillFolder(scope, name, deps);
          const entry = lockEntryOf(
            fetched,
            item.staged,
            source.type === 'folder'
              ? { type: 'folder', path: recordedFolder(source.path, scope, deps) }
              : source,
          );
          const record = installRecord(
            'skill-install',
            name,
            entry,
            { command: 'add', directory: target },
            deps,
          );
          audit.record(record);
          moveIntoPlace(item.staged.directory, target, {
            replace: options.force === true,
            aside: staging.directory,
          });
          lockfile = withLockedSkill(lockfile, name, entry);
          writeLock(scope, lockfile);
          say(`Installed ${printable(name)} in ${printable(displayPath(target, deps.cwd))}`);
        }
      } finally {
        audit.close();
      }
      report(installable);
      say(`Recorded in ${printable(displayPath(scope.lockfile, deps.cwd))}.`);
      const names = installable.map((item) => item.staged.skill.name);
      if (isExternalSource(source))
        say(
          `From outside your control: a model's first activation of ${names.join(', ')} asks you, as for an untrusted skill, until you trust it (skillhost trust --skill NAME).`,
        );
      if (scope.kind === 'project' && !projectTrusted)
        say(
          "This project folder is not trusted: its skills load once you run 'skillhost trust' here.",
        );
      const disabled = names.filter((name) => (config.disabledSkills ?? []).includes(name));
      if (disabled.length > 0)
        say(`Disabled, so not offered: ${disabled.join(', ')} (skillhost enable NAME).`);
      return refusals.size > 0 ? 1 : 0;
    } finally {
      staging.dispose();
    }
  } finally {
    fetched.dispose();
  }
}
