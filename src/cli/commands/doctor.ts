import { hasDifferences } from '../../internal.js';
import {
  compareFiles,
  hashSkillFolder,
  isExternalSource,
  parseAuditLog,
  SkillhostError,
  verifyAuditLog,
} from '../../node/index.js';
import { fileFacts, folderUsage, probeSystem } from '../../node/internal.js';
import { parseArgs, UsageError } from '../args.js';
import type { CommandContext } from '../command.js';
import { printable } from '../format.js';
import { isSkillTrusted, projectScope, readLock, skillFolder, userScope } from '../installed.js';
import type { CliDeps, UserConfig } from '../io.js';
import {
  auditLogPath,
  configFile,
  openRegistry,
  SOURCE_OPTIONS,
  skillhostHome,
} from '../registry-options.js';
import { createStyle } from '../style.js';
import { apiKey } from './agent-run.js';
import { type CheckStatus, type DoctorFacts, doctorChecks } from './doctor-checks.js';
import { findClientConfigs } from './doctor-clients.js';

function installedFacts(
  projectDir: string,
  config: UserConfig,
  deps: CliDeps,
): DoctorFacts['installed'] {
  return [projectScope(projectDir, deps), userScope(deps)].map((scope) => {
    const read = readLock(scope, deps);
    return {
      scope: scope.kind,
      lockfile: scope.lockfile,
      exists: read.exists,
      problems: read.diagnostics.map((diagnostic) => diagnostic.message),
      skills: Object.entries(read.lockfile.skills).map(([name, entry]) => {
        const directory = skillFolder(scope, name, deps);
        const present = hashSkillFolder(directory);
        return {
          name,
          state:
            present === undefined
              ? ('missing' as const)
              : hasDifferences(compareFiles(entry.files, present))
                ? ('modified' as const)
                : ('ok' as const),
          external: isExternalSource(entry.source),
          trusted: isSkillTrusted(config, directory, entry, deps),
        };
      }),
    };
  });
}

function providerFacts(deps: CliDeps): DoctorFacts['providers'] {
  return (['anthropic', 'openai'] as const).map((name) => {
    const variable = name === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    const base = deps.env[name === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL'];
    const note = base === undefined || base === '' ? undefined : `server ${base}`;
    const withNote = note === undefined ? {} : { note };
    if (deps.env[variable] !== undefined && deps.env[variable] !== '')
      return { name, key: 'environment' as const, ...withNote };
    try {
      // The key itself never leaves this function: only whether there is one.
      return {
        name,
        key: apiKey(name, deps) === undefined ? ('missing' as const) : ('keys.json' as const),
        ...withNote,
      };
    } catch (error) {
      return {
        name,
        key: 'unreadable' as const,
        note: SkillhostError.isInstance(error) ? error.message : String(error),
      };
    }
  });
}

/** Looks at everything doctor checks. */
function gather(args: ReturnType<typeof parseArgs>, deps: CliDeps): DoctorFacts {
  const home = skillhostHome(deps);
  const configPath = configFile(deps);
  let config: UserConfig = { trustedProjects: [] };
  let configError: string | undefined;
  try {
    config = deps.readConfig(configPath);
  } catch (error) {
    configError = error instanceof Error ? error.message : String(error);
  }
  let registry: ReturnType<typeof openRegistry> | undefined;
  const findings: string[] = [];
  try {
    registry = openRegistry({ ...args, options: { ...args.options, cache: false } }, deps);
    for (const diagnostic of registry.registry.diagnostics)
      findings.push(`${diagnostic.code}: ${diagnostic.message} (${diagnostic.file})`);
  } catch (error) {
    findings.push(error instanceof Error ? error.message : String(error));
  }
  const entries = registry?.registry.entries ?? [];
  const sources = (registry?.sources ?? []).map((source) => ({
    id: source.id,
    kind: source.kind,
    root: source.root,
    trust: source.trust,
    enabled: source.enabled,
    exists: deps.fs.status(source.root, true)?.kind === 'directory',
    skills: entries.filter((entry) => entry.source.id === source.id).length,
  }));
  const projectDir = registry?.projectDir ?? deps.resolvePath(deps.cwd, '.');
  const auditPath = auditLogPath(args, deps);
  let auditText = '';
  try {
    auditText = deps.readText(auditPath);
  } catch (error) {
    findings.push(`the audit log cannot be read: ${(error as Error).message}`);
  }
  const log = parseAuditLog(auditText);
  const verdicts = verifyAuditLog(log, deps.hash);
  const cachePath =
    args.options['cache-dir'] === undefined
      ? deps.resolvePath(home, 'cache')
      : deps.resolvePath(deps.cwd, String(args.options['cache-dir']));
  const keysPath = deps.resolvePath(home, 'keys.json');
  return {
    system: probeSystem(),
    sources,
    findings,
    project: { path: projectDir, trusted: registry?.projectTrusted ?? false },
    home: { path: home, facts: fileFacts(home) },
    config: {
      path: configPath,
      facts: fileFacts(configPath),
      ...(configError === undefined ? {} : { error: configError }),
    },
    keys: { path: keysPath, facts: fileFacts(keysPath) },
    cache: { path: cachePath, usage: folderUsage(cachePath) },
    audit: {
      path: auditPath,
      records: log.records.length,
      sessions: verdicts.length,
      broken: verdicts
        .filter((verdict) =>
          verdict.problems.some((problem) => !problem.includes('no session-end')),
        )
        .map((verdict) => verdict.session),
      unended: verdicts.filter((verdict) => !verdict.ended).length,
      torn: log.problems.length,
    },
    installed: installedFacts(projectDir, config, deps),
    providers: providerFacts(deps),
    clients: findClientConfigs(projectDir, deps),
  };
}

const MARKS: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', info: 'info' };

/** `skillhost doctor`: checks the machine, the sources, the files skillhost keeps, and the clients. */
export function run({ argv, io, deps }: CommandContext): number {
  const args = parseArgs(argv, SOURCE_OPTIONS);
  if (args.positionals.length > 0) throw new UsageError('doctor takes no arguments');
  const checks = doctorChecks(gather(args, deps));
  const counts = { ok: 0, warn: 0, fail: 0, info: 0 };
  for (const check of checks) counts[check.status] += 1;
  if (args.options.json === true) {
    io.stdout.write(`${JSON.stringify({ checks, summary: counts }, null, 2)}\n`);
  } else {
    const style = createStyle(io.stdout, deps.env);
    const paint = (status: CheckStatus, text: string) =>
      status === 'fail'
        ? style.red(text)
        : status === 'warn'
          ? style.yellow(text)
          : status === 'ok'
            ? style.green(text)
            : style.dim(text);
    const lines: string[] = [];
    for (const check of checks) {
      lines.push(
        `${paint(check.status, MARKS[check.status])}  ${style.bold(printable(check.title))}: ${printable(check.detail)}`,
      );
      if (check.fix !== undefined && check.status !== 'ok')
        lines.push(`      fix: ${printable(check.fix)}`);
    }
    lines.push(
      '',
      `${counts.fail} failed, ${counts.warn} warning${counts.warn === 1 ? '' : 's'}, ${counts.ok} ok, ${counts.info} note${counts.info === 1 ? '' : 's'}`,
    );
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return counts.fail > 0 ? 1 : 0;
}
