import { hasDifferences, isFullCommit } from '../../internal.js';
import {
  compareFiles,
  compareSkillVersions,
  describeSource,
  fetchSkillSource,
  hashSkillFolder,
  type LockedSkill,
  readSkillDirectory,
  type SkillChanges,
  type SkillFileSystem,
  SkillhostError,
  withLockedSkill,
} from '../../node/index.js';
import { createStaging, moveIntoPlace } from '../../node/internal.js';
import { parseArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import {
  confirmInstall,
  describePrepared,
  INSTALL_OPTIONS,
  installedTrust,
  installRecord,
  openInstallAudit,
  preparedJson,
  prepareStaged,
  recordedSkillFolder,
  refusalCode,
  writeLock,
} from '../install-flow.js';
import {
  chooseScope,
  isSkillTrusted,
  readLock,
  resolveRecorded,
  skillFolder,
} from '../installed.js';
import { configFile } from '../registry-options.js';
import { createStyle, type Style } from '../style.js';

const OPTIONS = { ...INSTALL_OPTIONS, yes: { type: 'boolean' } } as const;

/** SKILL.md as text (undefined when it cannot be read). */
function skillText(fs: SkillFileSystem, directory: string): string | undefined {
  const read = fs.readFileWithin(directory, 'SKILL.md', { maxBytes: 1024 * 1024 });
  return read.ok ? new TextDecoder().decode(read.bytes) : undefined;
}

function allowedTools(fs: SkillFileSystem, directory: string): string | undefined {
  return readSkillDirectory(fs, directory, { level: 'metadata' }).skill?.metadata.allowedTools;
}

const list = (path: string) => printable(path);

/** What changed, as the user reads it before confirming. */
function describeChanges(changes: SkillChanges, style: Style): string[] {
  const lines: string[] = [];
  if (changes.skillFileDiff.length > 0) {
    lines.push('  SKILL.md:');
    const shown = changes.skillFileDiff.slice(0, 200);
    for (const line of shown) {
      const text = `    ${printable(line)}`;
      lines.push(
        line.startsWith('+')
          ? style.green(text)
          : line.startsWith('-')
            ? style.red(text)
            : line.startsWith('@@')
              ? style.cyan(text)
              : text,
      );
    }
    if (changes.skillFileDiff.length > shown.length)
      lines.push(`    … ${changes.skillFileDiff.length - shown.length} more lines of diff`);
  }
  const { scripts } = changes;
  if (scripts.added.length > 0)
    lines.push(`  scripts added: ${scripts.added.map(list).join(', ')}`);
  if (scripts.changed.length > 0)
    lines.push(
      `  scripts changed: ${scripts.changed.map(list).join(', ')} — approvals you gave their earlier content no longer apply: each asks again before it runs`,
    );
  if (scripts.removed.length > 0)
    lines.push(`  scripts removed: ${scripts.removed.map(list).join(', ')}`);
  const tools = changes.allowedTools;
  if (tools.added.length + tools.removed.length > 0)
    lines.push(
      `  allowed-tools: ${printable(tools.before ?? '(none)')} → ${printable(tools.after ?? '(none)')}${tools.added.length > 0 ? ` (asks for more: ${tools.added.map(list).join(' ')})` : ''}`,
    );
  const others = [
    ...changes.files.added,
    ...changes.files.changed,
    ...changes.files.removed,
  ].filter((path) => path !== 'SKILL.md' && !path.startsWith('scripts/'));
  if (others.length > 0)
    lines.push(
      `  other files: ${others.length} added, changed or removed (${others.slice(0, 8).map(list).join(', ')}${others.length > 8 ? ', …' : ''})`,
    );
  return lines;
}

type Outcome = 'up-to-date' | 'updated' | 'pinned' | 'declined' | 'refused' | 'failed';

/** `skillhost update [NAME...]`: fetch, show what changed, ask, replace, record. */
export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, OPTIONS);
  const json = args.options.json === true;
  const style = createStyle(io.stdout, deps.env);
  const { scope, projectTrusted } = chooseScope(args.options, deps, 'update');
  const lock = readLock(scope, deps);
  if (!lock.usable)
    throw new SkillhostError(
      'LOCKFILE_INVALID',
      `${scope.lockfile} cannot be read: ${lock.diagnostics[0]?.message ?? ''}`,
    );
  const recorded = lock.lockfile.skills;
  const names =
    args.positionals.length === 0 ? Object.keys(recorded).sort() : [...args.positionals];
  const missing = names.filter((name) => recorded[name] === undefined);
  if (missing.length > 0)
    throw new SkillhostError(
      'SKILL_NOT_INSTALLED',
      `${missing.map((name) => JSON.stringify(printable(name))).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in ${scope.lockfile}`,
    );
  const config = deps.readConfig(configFile(deps));
  const say = (text: string) => {
    if (!json) io.stdout.write(`${text}\n`);
  };
  const results: Array<{
    name: string;
    outcome: Outcome;
    message?: string;
    code?: string;
    [key: string]: unknown;
  }> = [];
  let lockfile = lock.lockfile;
  let audit: ReturnType<typeof openInstallAudit> | undefined;
  try {
    for (const name of names) {
      const before = recorded[name] as LockedSkill;
      const source = resolveRecorded(before.source, scope, deps);
      if (source.type === 'git' && source.ref !== undefined && isFullCommit(source.ref)) {
        results.push({ name, outcome: 'pinned', message: `pinned to commit ${source.ref}` });
        say(`${printable(name)}: pinned to commit ${source.ref}; nothing to update`);
        continue;
      }
      let fetched: Awaited<ReturnType<typeof fetchSkillSource>>;
      try {
        fetched = await fetchSkillSource(source, { env: deps.env });
      } catch (error) {
        if (!SkillhostError.isInstance(error)) throw error;
        results.push({ name, outcome: 'failed', code: error.code, message: error.message });
        say(`${printable(name)}: FAILED — ${error.code}: ${printable(error.message)}`);
        continue;
      }
      const staging = createStaging(scope.skillsFolder);
      try {
        let directory: string;
        try {
          directory = recordedSkillFolder(fetched, before, deps);
        } catch (error) {
          if (!SkillhostError.isInstance(error)) throw error;
          results.push({ name, outcome: 'failed', code: error.code, message: error.message });
          say(`${printable(name)}: FAILED — ${printable(error.message)}`);
          continue;
        }
        const staged = staging.stage({ name, directory, path: before.path });
        const after: LockedSkill = {
          ...before,
          ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
          ...(fetched.digest === undefined ? {} : { digest: fetched.digest }),
          files: staged.files,
        };
        const target = skillFolder(scope, name, deps);
        const installed = hashSkillFolder(target);
        const modified =
          installed === undefined || hasDifferences(compareFiles(before.files, installed));
        if (!hasDifferences(compareFiles(before.files, staged.files))) {
          const moved = after.commit !== before.commit || after.digest !== before.digest;
          if (moved) {
            lockfile = withLockedSkill(lockfile, name, after);
            writeLock(scope, lockfile);
          }
          results.push({
            name,
            outcome: 'up-to-date',
            ...(after.commit === undefined ? {} : { commit: after.commit }),
          });
          say(
            `${printable(name)}: up to date${moved && after.commit !== undefined ? ` (now at commit ${after.commit}, same files)` : ''}${modified ? '; its folder differs from the lockfile: skillhost install puts it back' : ''}`,
          );
          continue;
        }
        const [prepared] = prepareStaged(
          staging,
          [staged],
          installedTrust(before.source, scope, projectTrusted),
          deps,
        );
        if (prepared === undefined)
          throw new SkillhostError('INTERNAL_ERROR', `${name} was not staged`);
        const changes = compareSkillVersions(
          {
            files: before.files,
            skillText: skillText(deps.fs, target),
            allowedTools: allowedTools(deps.fs, target),
          },
          {
            files: staged.files,
            skillText: skillText(deps.fs, staged.directory),
            allowedTools: prepared.entry?.metadata?.allowedTools,
          },
        );
        const pin = (entry: LockedSkill) => entry.commit ?? entry.digest ?? 'the folder';
        say(
          `${style.bold(printable(name))}: ${printable(describeSource(before.source))} ${pin(before).slice(0, 12)} → ${pin(after).slice(0, 12)}`,
        );
        for (const line of describeChanges(changes, style)) say(line);
        for (const line of describePrepared(prepared, style, staging.directory).slice(1)) say(line);
        if (modified)
          say(
            `  ${style.yellow('note')}: the installed folder has local changes; updating replaces them`,
          );
        const wasTrusted = isSkillTrusted(config, target, before, deps);
        if (wasTrusted)
          say(
            '  note: you trusted the recorded version; the new one asks again until you trust it (skillhost trust --skill NAME)',
          );
        const base = { name, changes, skill: preparedJson(prepared, staging.directory) };
        if (!prepared.check.valid) {
          results.push({
            ...base,
            outcome: 'refused',
            code: 'SKILL_INVALID',
            message: 'the new version has errors (strict validation)',
          });
          say(`  ${style.red('refused')}: the new version has errors (strict validation)`);
          continue;
        }
        try {
          await confirmInstall(io, args, `Update ${name}?`);
        } catch (error) {
          const code = refusalCode(error);
          if (code === undefined) throw error;
          results.push({ ...base, outcome: 'declined', message: (error as Error).message });
          if (!json) io.stderr.write(`skillhost: ${printable((error as Error).message)}\n`);
          continue;
        }
        audit ??= openInstallAudit(args, deps, 'update');
        audit.record(
          installRecord(
            'skill-update',
            name,
            after,
            { command: 'update', directory: target, previous: before },
            deps,
          ),
        );
        moveIntoPlace(staged.directory, target, { replace: true, aside: staging.directory });
        lockfile = withLockedSkill(lockfile, name, after);
        writeLock(scope, lockfile);
        results.push({
          ...base,
          outcome: 'updated',
          ...(after.commit === undefined ? {} : { commit: after.commit }),
        });
        say(`Updated ${printable(name)}.`);
      } finally {
        staging.dispose();
        fetched.dispose();
      }
    }
  } finally {
    audit?.close();
  }
  if (json)
    io.stdout.write(`${JSON.stringify({ lockfile: scope.lockfile, skills: results }, null, 2)}\n`);
  if (results.some((result) => result.outcome === 'failed' || result.outcome === 'refused'))
    return 1;
  return results.some((result) => result.outcome === 'declined') ? 3 : 0;
}
