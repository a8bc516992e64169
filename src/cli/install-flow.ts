import { AuditTrail, SkillRegistry } from '../internal.js';
import {
  type AuditEventInput,
  CANONICAL_TOOLS,
  describeSource,
  type ExplainScript,
  explainGrants,
  type FetchedSource,
  type GrantExplanation,
  type InstallSource,
  isExternalSource,
  type LockedSkill,
  type Lockfile,
  type RegistryEntry,
  type SkillCheck,
  SkillhostError,
  type SourceLookup,
  serializeLockfile,
  type Trust,
  treeDigest,
  validateSkillPaths,
} from '../node/index.js';
import { loadYaml, type StagedSkill, type Staging, writeFileAtomically } from '../node/internal.js';
import type { ParsedArgs } from './args.js';
import { skillScripts } from './commands/policy-explain.js';
import { displayPath, formatDiagnostic } from './format.js';
import type { InstallScope } from './installed.js';
import type { CliDeps, CliIO } from './io.js';
import { printable } from './printable.js';
import { auditLogPath } from './registry-options.js';
import { approvalStore } from './runtime-options.js';
import type { Style } from './style.js';
import { VERSION } from './version.js';

/** Options of the commands that change installed skills. */
export const INSTALL_OPTIONS = {
  project: { type: 'boolean' },
  user: { type: 'boolean' },
  json: { type: 'boolean' },
  'audit-log': { type: 'string' },
} as const;

/** The folder of a recorded skill in its fetched source; fails when the source no longer has it. */
export function recordedSkillFolder(
  fetched: FetchedSource,
  entry: LockedSkill,
  deps: CliDeps,
): string {
  const directory = entry.path === '.' ? fetched.root : deps.resolvePath(fetched.root, entry.path);
  if (deps.fs.status(directory, false)?.kind !== 'directory')
    throw new SkillhostError(
      'SOURCE_SUBPATH_NOT_FOUND',
      `${describeSource(entry.source)} has no folder ${entry.path} any more`,
      { details: { path: entry.path } },
    );
  return directory;
}

/** How the CLI asks the file system what a source argument names. */
export function sourceLookup(deps: CliDeps): SourceLookup {
  return {
    kindOf: (path) => {
      const status = deps.fs.status(path, true);
      return status?.kind === 'directory'
        ? 'directory'
        : status?.kind === 'file'
          ? 'file'
          : undefined;
    },
    resolve: (path) =>
      path === '~' || path.startsWith('~/')
        ? deps.resolvePath(deps.homeDir, path.slice(2) || '.')
        : deps.resolvePath(deps.cwd, path),
  };
}

/** The audit trail of one add, update, remove or install: its own session in the audit log. */
export interface InstallAudit {
  record(input: AuditEventInput): void;
  close(): void;
}

export function openInstallAudit(args: ParsedArgs, deps: CliDeps, command: string): InstallAudit {
  const sink = deps.auditSink(auditLogPath(args, deps));
  const trail = new AuditTrail({
    sink,
    hash: deps.hash,
    now: deps.now,
    sessionId: deps.newSessionId(),
  });
  try {
    trail.record({ event: 'session-start', details: { command, version: VERSION } });
  } catch (error) {
    sink.close();
    throw error;
  }
  return {
    record: (input) => trail.record(input),
    close: () => {
      try {
        trail.close();
      } finally {
        sink.close();
      }
    },
  };
}

/** The audit record of a skill installed, updated or removed: source, commit or digest, hashes. */
export function installRecord(
  event: 'skill-install' | 'skill-update' | 'skill-remove',
  name: string,
  entry: LockedSkill,
  extra: { readonly command: string; readonly directory: string; readonly previous?: LockedSkill },
  deps: CliDeps,
): AuditEventInput {
  return {
    event,
    skill_name: name,
    source: describeSource(entry.source),
    content_hash: treeDigest(entry.files, deps.hash),
    details: {
      command: extra.command,
      directory: extra.directory,
      origin: entry.source,
      ...(entry.commit === undefined ? {} : { commit: entry.commit }),
      ...(entry.digest === undefined ? {} : { digest: entry.digest }),
      path: entry.path,
      files: entry.files,
      ...(extra.previous === undefined
        ? {}
        : {
            previous: {
              ...(extra.previous.commit === undefined ? {} : { commit: extra.previous.commit }),
              ...(extra.previous.digest === undefined ? {} : { digest: extra.previous.digest }),
              content_hash: treeDigest(extra.previous.files, deps.hash),
            },
          }),
    },
  };
}

/** Writes a scope's lockfile (atomically). */
export function writeLock(scope: InstallScope, lockfile: Lockfile): void {
  writeFileAtomically(scope.lockfile, serializeLockfile(lockfile));
}

/** The lockfile entry of a staged skill. */
export function lockEntryOf(
  fetched: FetchedSource,
  staged: StagedSkill,
  source: InstallSource,
): LockedSkill {
  return {
    source,
    ...(fetched.commit === undefined ? {} : { commit: fetched.commit }),
    ...(fetched.digest === undefined ? {} : { digest: fetched.digest }),
    path: staged.skill.path,
    files: staged.files,
  };
}

/** A staged skill, judged: strict validation, its registry entry (as it would load), its scripts and grants. */
export interface PreparedSkill {
  readonly staged: StagedSkill;
  readonly check: SkillCheck;
  readonly entry: RegistryEntry | undefined;
  readonly scripts: readonly ExplainScript[];
  readonly grants: readonly GrantExplanation[];
  /** For an untrusted skill: what its allowed-tools would be granted once trusted. */
  readonly grantsIfTrusted: readonly GrantExplanation[];
  readonly trust: Trust;
}

/** The trust a skill from this source gets once installed in this scope. */
export function installedTrust(
  source: InstallSource,
  scope: InstallScope,
  projectTrusted: boolean,
): Trust {
  if (isExternalSource(source)) return 'untrusted';
  return scope.kind === 'user' || projectTrusted ? 'trusted' : 'untrusted';
}

/**
 * Validates the staged copies strictly (the exact bytes that would be installed) and reads them
 * as the registry would, for what the policy would make of their `allowed-tools` and scripts.
 */
export function prepareStaged(
  staging: Staging,
  staged: readonly StagedSkill[],
  trust: Trust,
  deps: CliDeps,
): PreparedSkill[] {
  const registry = SkillRegistry.open({
    fs: deps.fs,
    yaml: loadYaml,
    hash: deps.hash,
    keepScans: false,
    sources: [{ id: 'incoming', kind: 'external', root: staging.directory, trust, enabled: true }],
  });
  const store = approvalStore(deps);
  return staged.map((skill) => {
    const report = validateSkillPaths([skill.directory], { fs: deps.fs, mode: 'strict' });
    const check = report.results[0] as SkillCheck;
    const entry = registry.entries.find((item) => item.directory === skill.directory);
    const scripts =
      entry === undefined || entry.metadata === undefined ? [] : skillScripts(entry, deps).scripts;
    const explain = (trusted: boolean) =>
      entry?.metadata === undefined
        ? []
        : explainGrants(entry.metadata.allowedTools, {
            trusted,
            hostTools: [...CANONICAL_TOOLS],
            scripts,
            approved: (key) => store.has(key),
            skill: { address: skill.skill.name, source: 'incoming' },
          });
    const grants = explain(trust === 'trusted');
    const grantsIfTrusted = trust === 'trusted' ? [] : explain(true);
    return { staged: skill, check, entry, scripts, grants, grantsIfTrusted, trust };
  });
}

/** What the user is shown of a skill before it is installed or updated. */
export function describePrepared(
  prepared: PreparedSkill,
  style: Style,
  stagingDir: string,
): string[] {
  const { staged, check, entry, scripts, grants, grantsIfTrusted, trust } = prepared;
  const lines = [
    `${style.bold(printable(staged.skill.name))}  (${printable(staged.skill.path)} in the source)`,
  ];
  const metadata = entry?.metadata;
  if (metadata !== undefined)
    lines.push(`  description: ${printable(metadata.description.slice(0, 500))}`);
  lines.push(
    scripts.length === 0
      ? '  scripts: none'
      : `  scripts: ${scripts.map((script) => `${printable(script.path)} (${script.interpreter}, sha256 ${script.contentHash.slice(0, 12)}…)`).join(', ')}`,
  );
  const requested = metadata?.allowedTools;
  lines.push(
    `  allowed-tools: ${requested === undefined || requested.trim() === '' ? '(none)' : printable(requested)}`,
  );
  const shown = trust === 'trusted' ? grants : grantsIfTrusted;
  for (const grant of shown)
    lines.push(
      `    ${grant.status.padEnd(12)} ${printable(grant.entry)}: ${printable(grant.reason)}`,
    );
  lines.push(
    trust === 'trusted'
      ? '  once installed: trusted; what is not granted above asks before it runs'
      : `  once installed: untrusted — a model activating it asks you first, and allowed-tools pre-approves nothing${shown.length > 0 ? ' until you trust it (then as above)' : ''}`,
  );
  for (const file of staged.skipped)
    lines.push(`  ${style.yellow('not copied')}: ${printable(file.path)} (${file.reason})`);
  for (const diagnostic of check.diagnostics)
    lines.push(
      ...formatDiagnostic(diagnostic, check.excerpts.get(diagnostic.line), stagingDir, style)
        .split('\n')
        .map((line) => `  ${line}`),
    );
  return lines;
}

/** The JSON of a prepared skill. */
export function preparedJson(prepared: PreparedSkill, stagingDir: string) {
  const { staged, check, entry, scripts, grants, grantsIfTrusted, trust } = prepared;
  return {
    name: staged.skill.name,
    path: staged.skill.path,
    description: entry?.metadata?.description ?? null,
    valid: check.valid,
    diagnostics: check.diagnostics.map((diagnostic) => ({
      ...diagnostic,
      file: displayPath(diagnostic.file, stagingDir),
    })),
    scripts,
    allowedTools: entry?.metadata?.allowedTools ?? null,
    grants,
    ...(trust === 'trusted' ? {} : { grantsIfTrusted }),
    trust,
    skipped: staged.skipped,
    files: staged.files,
  };
}

/**
 * Asks the user to go ahead: at a terminal, yes or no; `--yes` answers yes; without a terminal
 * (or with --json) it is refused, naming --yes.
 */
export async function confirmInstall(io: CliIO, args: ParsedArgs, question: string): Promise<void> {
  if (args.options.yes === true) return;
  const input = io.stdin;
  if (input === undefined || input.isTTY !== true || args.options.json === true)
    throw new SkillhostError(
      'PERMISSION_REQUIRED',
      `${question} Not confirmed: there is no terminal to ask at; pass --yes to go ahead`,
    );
  io.stderr.write(`${question} [y/N] `);
  const answer = (await input.readLine())?.trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes')
    throw new SkillhostError('PERMISSION_DENIED', 'Not confirmed: nothing was changed');
}

/** Exit code of a refusal to go ahead (3), or of another failure (1). */
export function refusalCode(error: unknown): number | undefined {
  if (!SkillhostError.isInstance(error)) return undefined;
  return error.code === 'PERMISSION_REQUIRED' || error.code === 'PERMISSION_DENIED' ? 3 : undefined;
}
