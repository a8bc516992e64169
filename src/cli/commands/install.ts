import { hasDifferences } from '../../internal.js';
import {
  type Code,
  compareFiles,
  describeSource,
  type FetchedSource,
  fetchSkillSource,
  hashSkillFolder,
  type LockedSkill,
  SkillhostError,
} from '../../node/index.js';
import { createStaging, moveIntoPlace } from '../../node/internal.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { displayPath, printable } from '../format.js';
import {
  INSTALL_OPTIONS,
  installRecord,
  openInstallAudit,
  recordedSkillFolder,
} from '../install-flow.js';
import {
  chooseScope,
  type InstallScope,
  readLock,
  resolveRecorded,
  skillFolder,
} from '../installed.js';
import type { CliDeps } from '../io.js';

const OPTIONS = { ...INSTALL_OPTIONS, frozen: { type: 'boolean' } } as const;

type Outcome = 'unchanged' | 'installed' | 'restored' | 'failed';

interface SkillResult {
  readonly name: string;
  readonly outcome: Outcome;
  readonly code?: Code;
  readonly message?: string;
}

/** Fetches each recorded source once (by source and commit or digest). */
function sourceKey(entry: LockedSkill): string {
  return `${JSON.stringify(entry.source)} ${entry.commit ?? entry.digest ?? ''}`;
}

function failure(name: string, error: unknown): SkillResult {
  if (!SkillhostError.isInstance(error)) throw error;
  return { name, outcome: 'failed', code: error.code, message: error.message };
}

/**
 * Puts one recorded skill in place from its fetched source: the folder at its recorded path,
 * staged, compared file by file with the lockfile, moved in only when every hash matches.
 */
function reproduce(
  name: string,
  entry: LockedSkill,
  fetched: FetchedSource,
  scope: InstallScope,
  replace: boolean,
  deps: CliDeps,
  record: () => void,
): void {
  const staging = createStaging(scope.skillsFolder);
  try {
    const directory = recordedSkillFolder(fetched, entry, deps);
    const staged = staging.stage({ name, directory, path: entry.path });
    const differences = compareFiles(entry.files, staged.files);
    if (hasDifferences(differences)) {
      const changed = [...differences.changed, ...differences.added, ...differences.removed];
      throw new SkillhostError(
        'LOCKFILE_MISMATCH',
        `${describeSource(entry.source)} no longer gives the files skills-lock.json records for ${name} (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''})`,
        { details: differences as unknown as Record<string, unknown> },
      );
    }
    record();
    moveIntoPlace(staged.directory, skillFolder(scope, name, deps), {
      replace,
      aside: staging.directory,
    });
  } finally {
    staging.dispose();
  }
}

/** `skillhost install [--frozen]`: makes the skill folders exactly what the lockfile records. */
export async function run({ argv, io, deps }: CommandContext): Promise<number> {
  const args = parseArgs(argv, OPTIONS);
  if (args.positionals.length > 0)
    throw new UsageError('install takes no arguments (skillhost add SOURCE installs new skills)');
  const frozen = args.options.frozen === true;
  const json = args.options.json === true;
  const { scope } = chooseScope(args.options, deps, 'install');
  const lock = readLock(scope, deps);
  if (!lock.exists)
    throw new SkillhostError('LOCKFILE_INVALID', `There is no ${scope.lockfile} to install from`);
  if (!lock.usable || (frozen && lock.diagnostics.length > 0))
    throw new SkillhostError(
      'LOCKFILE_INVALID',
      lock.diagnostics.map((diagnostic) => `${diagnostic.file}: ${diagnostic.message}`).join('; '),
      { diagnostics: lock.diagnostics },
    );
  for (const diagnostic of lock.diagnostics)
    io.stderr.write(`warning ${diagnostic.code}: ${printable(diagnostic.message)} (skipped)\n`);
  const results: SkillResult[] = [];
  const pending = new Map<string, Array<[string, LockedSkill, boolean]>>();
  for (const [name, entry] of Object.entries(lock.lockfile.skills).sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const present = hashSkillFolder(skillFolder(scope, name, deps));
    if (present !== undefined && !hasDifferences(compareFiles(entry.files, present))) {
      results.push({ name, outcome: 'unchanged' });
      continue;
    }
    if (present !== undefined && frozen) {
      results.push({
        name,
        outcome: 'failed',
        code: 'SKILL_MODIFIED',
        message: `${skillFolder(scope, name, deps)} differs from skills-lock.json (--frozen changes nothing that is there)`,
      });
      continue;
    }
    const key = sourceKey(entry);
    pending.set(key, [...(pending.get(key) ?? []), [name, entry, present !== undefined]]);
  }
  const audit =
    pending.size === 0
      ? undefined
      : openInstallAudit(args, deps, frozen ? 'install --frozen' : 'install');
  try {
    for (const group of pending.values()) {
      const [, first] = group[0] as [string, LockedSkill, boolean];
      let fetched: FetchedSource;
      try {
        fetched = await fetchSkillSource(resolveRecorded(first.source, scope, deps), {
          env: deps.env,
          pinned: {
            ...(first.commit === undefined ? {} : { commit: first.commit }),
            ...(first.digest === undefined ? {} : { digest: first.digest }),
          },
        });
      } catch (error) {
        for (const [name, entry] of group) {
          const result = failure(name, error);
          results.push(result);
          audit?.record({
            ...installRecord(
              'skill-install',
              name,
              entry,
              { command: 'install', directory: skillFolder(scope, name, deps) },
              deps,
            ),
            error: { code: result.code ?? 'INTERNAL_ERROR', message: result.message ?? '' },
          });
        }
        continue;
      }
      try {
        for (const [name, entry, present] of group) {
          const record = installRecord(
            'skill-install',
            name,
            entry,
            { command: 'install', directory: skillFolder(scope, name, deps) },
            deps,
          );
          try {
            reproduce(name, entry, fetched, scope, present, deps, () => audit?.record(record));
            results.push({ name, outcome: present ? 'restored' : 'installed' });
          } catch (error) {
            const result = failure(name, error);
            results.push(result);
            audit?.record({
              ...record,
              error: { code: result.code ?? 'INTERNAL_ERROR', message: result.message ?? '' },
            });
          }
        }
      } finally {
        fetched.dispose();
      }
    }
  } finally {
    audit?.close();
  }
  results.sort((a, b) => (a.name < b.name ? -1 : 1));
  const failed = results.filter((result) => result.outcome === 'failed');
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ lockfile: scope.lockfile, frozen, skills: results }, null, 2)}\n`,
    );
  } else {
    const words: Record<Outcome, string> = {
      unchanged: 'up to date',
      installed: 'installed',
      restored: 'restored (the folder differed; it is now as recorded)',
      failed: 'FAILED',
    };
    for (const result of results)
      io.stdout.write(
        `${printable(result.name)}: ${words[result.outcome]}${result.code === undefined ? '' : ` — ${result.code}: ${printable(result.message ?? '')}`}\n`,
      );
    io.stdout.write(
      `${results.length - failed.length} of ${results.length} skill${results.length === 1 ? '' : 's'} as ${printable(displayPath(scope.lockfile, deps.cwd))} records${failed.length === 0 ? '' : `; ${failed.length} failed`}.\n`,
    );
  }
  return failed.length === 0 ? 0 : 1;
}
