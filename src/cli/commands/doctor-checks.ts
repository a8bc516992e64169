import type { FileFacts, SystemFacts } from '../../node/internal.js';
import type { ClientConfig } from './doctor-clients.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'info';

/** One finding of `skillhost doctor`: what was checked, what was found, and how to fix it. */
export interface DoctorCheck {
  readonly id: string;
  readonly status: CheckStatus;
  readonly title: string;
  readonly detail: string;
  readonly fix?: string;
}

/** Everything doctor looked at; the checks are a pure function of it. */
export interface DoctorFacts {
  readonly system: SystemFacts;
  readonly sources: ReadonlyArray<{
    readonly id: string;
    readonly kind: string;
    readonly root: string;
    readonly trust: string;
    readonly enabled: boolean;
    readonly exists: boolean;
    readonly skills: number;
  }>;
  /** Findings of the search (limits reached, unreadable folders). */
  readonly findings: readonly string[];
  readonly project: { readonly path: string; readonly trusted: boolean };
  readonly home: { readonly path: string; readonly facts: FileFacts | undefined };
  readonly config: {
    readonly path: string;
    readonly facts: FileFacts | undefined;
    readonly error?: string;
  };
  readonly keys: { readonly path: string; readonly facts: FileFacts | undefined };
  readonly cache: {
    readonly path: string;
    readonly usage: { files: number; bytes: number } | undefined;
  };
  readonly audit: {
    readonly path: string;
    readonly records: number;
    readonly sessions: number;
    /** Sessions whose chain is broken (altered, missing or reordered records). */
    readonly broken: readonly string[];
    /** Sessions without a session-end record. */
    readonly unended: number;
    readonly torn: number;
  };
  readonly installed: ReadonlyArray<{
    readonly scope: 'project' | 'user';
    readonly lockfile: string;
    readonly exists: boolean;
    readonly problems: readonly string[];
    readonly skills: ReadonlyArray<{
      readonly name: string;
      readonly state: 'ok' | 'modified' | 'missing';
      readonly external: boolean;
      readonly trusted: boolean;
    }>;
  }>;
  readonly providers: ReadonlyArray<{
    readonly name: string;
    readonly key: 'environment' | 'keys.json' | 'missing' | 'unreadable';
    readonly note?: string;
  }>;
  readonly clients: readonly ClientConfig[];
}

const MIN_NODE = [20, 19];

function nodeAtLeast(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (
    major > (MIN_NODE[0] as number) || (major === MIN_NODE[0] && minor >= (MIN_NODE[1] as number))
  );
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

function permissions(
  id: string,
  title: string,
  path: string,
  facts: FileFacts | undefined,
  kind: 'file' | 'directory',
  secret: boolean,
): DoctorCheck {
  if (facts === undefined)
    return { id, status: 'info', title, detail: `${path} does not exist yet` };
  if (facts.kind !== kind)
    return {
      id,
      status: 'fail',
      title,
      detail: `${path} is a ${facts.kind}, not a ${kind}`,
      fix: `Replace it with a ${kind}`,
    };
  if (!facts.ownedByUser)
    return {
      id,
      status: 'fail',
      title,
      detail: `${path} belongs to another user`,
      fix: `chown it to yourself, or set SKILLHOST_HOME elsewhere`,
    };
  const wanted = kind === 'directory' ? 0o700 : 0o600;
  const writableByOthers = (facts.mode & 0o022) !== 0;
  const readableByOthers = (facts.mode & 0o044) !== 0;
  if (writableByOthers || (secret && readableByOthers))
    return {
      id,
      status: 'fail',
      title,
      detail: `${path} is ${writableByOthers ? 'writable' : 'readable'} by others (${octal(facts.mode)})`,
      fix: `chmod ${octal(wanted).slice(1)} ${path}`,
    };
  if (readableByOthers)
    return {
      id,
      status: 'warn',
      title,
      detail: `${path} is readable by others (${octal(facts.mode)}): it lists your trusted folders and approvals`,
      fix: `chmod ${octal(wanted).slice(1)} ${path}`,
    };
  return { id, status: 'ok', title, detail: `${path} (${octal(facts.mode)})` };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The checks, in the order they are shown. */
export function doctorChecks(facts: DoctorFacts): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const { system } = facts;
  checks.push(
    nodeAtLeast(system.node)
      ? { id: 'node', status: 'ok', title: 'Node.js', detail: `${system.node}` }
      : {
          id: 'node',
          status: 'fail',
          title: 'Node.js',
          detail: `${system.node} is older than ${MIN_NODE.join('.')}`,
          fix: 'Install Node.js 20.19 or later (or 22)',
        },
  );
  checks.push(
    system.bubblewrap.available
      ? {
          id: 'bubblewrap',
          status: 'ok',
          title: 'Sandbox (bubblewrap)',
          detail: system.bubblewrap.reason,
        }
      : {
          id: 'bubblewrap',
          status: 'fail',
          title: 'Sandbox (bubblewrap)',
          detail: `${system.bubblewrap.reason}: skill scripts are refused (SANDBOX_UNAVAILABLE)`,
          fix:
            system.platform === 'linux'
              ? "apt-get install bubblewrap (or your distribution's package); in a container, allow user namespaces"
              : 'Scripts run in bubblewrap, which needs Linux',
        },
  );
  checks.push(
    system.prlimit !== undefined
      ? { id: 'prlimit', status: 'ok', title: 'Limits tool (prlimit)', detail: system.prlimit }
      : {
          id: 'prlimit',
          status: 'warn',
          title: 'Limits tool (prlimit)',
          detail:
            "prlimit is missing: scripts' limits are set with the shell's ulimit, which cannot limit core files",
          fix: 'apt-get install util-linux',
        },
  );
  checks.push(
    system.git !== undefined
      ? {
          id: 'git',
          status: 'ok',
          title: 'git (for skillhost add)',
          detail: `${system.git.version} at ${system.git.path}`,
        }
      : {
          id: 'git',
          status: 'warn',
          title: 'git (for skillhost add)',
          detail:
            'git is missing: skills cannot be installed from git repositories (folders and archives still work)',
          fix: 'apt-get install git',
        },
  );
  for (const source of facts.sources) {
    const title = `Source ${source.id}`;
    const where = `${source.root} (${source.kind}, ${source.trust})`;
    if (!source.exists)
      checks.push({
        id: `source:${source.id}`,
        status: 'info',
        title,
        detail: `${where}: not there`,
      });
    else if (!source.enabled && source.skills > 0)
      checks.push({
        id: `source:${source.id}`,
        status: 'warn',
        title,
        detail: `${where}: ${plural(source.skills, 'skill')}, not loaded: the project folder is not trusted`,
        fix: `skillhost trust ${facts.project.path}`,
      });
    else
      checks.push({
        id: `source:${source.id}`,
        status: 'ok',
        title,
        detail: `${where}: ${plural(source.skills, 'skill')}`,
      });
  }
  for (const finding of facts.findings)
    checks.push({
      id: 'sources',
      status: 'warn',
      title: 'Discovery',
      detail: finding,
      fix: 'Point the sources at smaller folders, or remove what the finding names',
    });
  checks.push(
    facts.project.trusted
      ? {
          id: 'project-trust',
          status: 'ok',
          title: 'Project trust',
          detail: `${facts.project.path} is trusted`,
        }
      : {
          id: 'project-trust',
          status: 'info',
          title: 'Project trust',
          detail: `${facts.project.path} is not trusted: its project skills are listed, not loaded`,
          fix: `skillhost trust ${facts.project.path} once you have read its skills`,
        },
  );
  checks.push(
    permissions(
      'home-permissions',
      'skillhost home',
      facts.home.path,
      facts.home.facts,
      'directory',
      false,
    ),
  );
  if (facts.config.error !== undefined)
    checks.push({
      id: 'config',
      status: 'fail',
      title: 'User config',
      detail: facts.config.error,
      fix: `Fix the JSON in ${facts.config.path}, or delete it to start over`,
    });
  else
    checks.push(
      permissions('config', 'User config', facts.config.path, facts.config.facts, 'file', false),
    );
  checks.push(
    permissions('keys', 'API keys file', facts.keys.path, facts.keys.facts, 'file', true),
  );
  checks.push(
    facts.cache.usage === undefined
      ? {
          id: 'cache',
          status: 'info',
          title: 'Index cache',
          detail: `${facts.cache.path}: empty (made on the next run)`,
        }
      : {
          id: 'cache',
          status: 'ok',
          title: 'Index cache',
          detail: `${facts.cache.path}: ${plural(facts.cache.usage.files, 'file')}, ${facts.cache.usage.bytes} bytes; checked against the files on every run`,
          fix: `Safe to delete at any time: rm -r ${facts.cache.path}`,
        },
  );
  const { audit } = facts;
  if (audit.records === 0)
    checks.push({
      id: 'audit',
      status: 'info',
      title: 'Audit log',
      detail: `${audit.path}: no records yet`,
    });
  else if (audit.broken.length > 0 || audit.torn > 0)
    checks.push({
      id: 'audit',
      status: 'fail',
      title: 'Audit log',
      detail: `${audit.path}: ${plural(audit.broken.length, 'session')} with altered, missing or reordered records${audit.torn > 0 ? `, ${plural(audit.torn, 'unreadable line')}` : ''}`,
      fix: 'skillhost audit verify names each problem; keep the log append-only and find out who changed it',
    });
  else
    checks.push({
      id: 'audit',
      status: audit.unended > 0 ? 'warn' : 'ok',
      title: 'Audit log',
      detail: `${audit.path}: ${plural(audit.records, 'record')} in ${plural(audit.sessions, 'session')}, every chain intact${audit.unended > 0 ? `; ${plural(audit.unended, 'session')} without an end (still running, or killed)` : ''}`,
      ...(audit.unended > 0
        ? {
            fix: 'Nothing to do if a skillhost mcp is running; otherwise a process was killed mid-session',
          }
        : {}),
    });
  for (const lock of facts.installed) {
    const id = `lockfile:${lock.scope}`;
    const title = `Installed skills (${lock.scope})`;
    if (!lock.exists) {
      checks.push({
        id,
        status: 'info',
        title,
        detail: `${lock.lockfile}: none installed with skillhost add`,
      });
      continue;
    }
    for (const problem of lock.problems)
      checks.push({
        id,
        status: 'fail',
        title,
        detail: problem,
        fix: `Fix the field named in ${lock.lockfile}, or restore it from version control`,
      });
    const missing = lock.skills
      .filter((skill) => skill.state === 'missing')
      .map((skill) => skill.name);
    const modified = lock.skills
      .filter((skill) => skill.state === 'modified')
      .map((skill) => skill.name);
    const untrusted = lock.skills
      .filter((skill) => skill.external && !skill.trusted)
      .map((skill) => skill.name);
    if (missing.length > 0)
      checks.push({
        id,
        status: 'fail',
        title,
        detail: `missing: ${missing.join(', ')}`,
        fix: `skillhost install${lock.scope === 'user' ? ' --user' : ''}`,
      });
    if (modified.length > 0)
      checks.push({
        id,
        status: 'warn',
        title,
        detail: `modified (files differ from ${lock.lockfile}): ${modified.join(', ')}`,
        fix: `skillhost install${lock.scope === 'user' ? ' --user' : ''} puts them back; skillhost update records a new version`,
      });
    if (missing.length + modified.length === 0)
      checks.push({
        id,
        status: 'ok',
        title,
        detail: `${plural(lock.skills.length, 'skill')} as ${lock.lockfile} records`,
      });
    if (untrusted.length > 0)
      checks.push({
        id,
        status: 'info',
        title,
        detail: `from outside your control, asked about before a model activates them: ${untrusted.join(', ')}`,
        fix: 'skillhost trust --skill NAME once you have read one',
      });
  }
  const keyed = facts.providers.filter(
    (provider) => provider.key === 'environment' || provider.key === 'keys.json',
  );
  for (const provider of facts.providers) {
    if (provider.key === 'unreadable')
      checks.push({
        id: `provider:${provider.name}`,
        status: 'fail',
        title: `Model provider ${provider.name}`,
        detail: provider.note ?? 'keys.json cannot be used',
        fix: 'chmod 600 the keys file (it must be yours and private)',
      });
    else if (provider.key !== 'missing')
      checks.push({
        id: `provider:${provider.name}`,
        status: 'ok',
        title: `Model provider ${provider.name}`,
        detail: `key present (${provider.key === 'environment' ? 'environment' : 'keys.json'}; not shown)${provider.note === undefined ? '' : `; ${provider.note}`}`,
      });
  }
  if (keyed.length === 0 && !facts.providers.some((provider) => provider.key === 'unreadable'))
    checks.push({
      id: 'providers',
      status: 'info',
      title: 'Model providers',
      detail: 'no API key: skillhost agent run needs one, or a local OpenAI-compatible server',
      fix: 'export ANTHROPIC_API_KEY or OPENAI_API_KEY, put them in $SKILLHOST_HOME/keys.json (chmod 600), or pass --provider openai-compatible --base-url URL',
    });
  const mentioned = facts.clients.filter(
    (client) => client.servers.length > 0 || client.unparsed !== undefined,
  );
  for (const client of mentioned) {
    for (const server of client.servers) {
      const { problem } = server;
      const command = server.url ?? server.command.join(' ');
      checks.push(
        problem === undefined
          ? {
              id: 'mcp-client',
              status: 'ok',
              title: `MCP client ${client.client}`,
              detail: `${client.path}: server "${server.name}": ${command}`,
            }
          : {
              id: 'mcp-client',
              status: 'warn',
              title: `MCP client ${client.client}`,
              detail: `${client.path}: server "${server.name}" ${problem}`,
              fix: 'Point it at the built CLI: "command": "node", "args": ["/path/to/skillhost/dist/cli/bin.js", "mcp", ...] (README: Installing skillhost)',
            },
      );
    }
    if (client.unparsed !== undefined)
      checks.push({
        id: 'mcp-client',
        status: 'info',
        title: `MCP client ${client.client}`,
        detail: `${client.path} ${client.unparsed}`,
      });
  }
  if (mentioned.length === 0)
    checks.push({
      id: 'mcp-clients',
      status: 'info',
      title: 'MCP clients',
      detail: `no client configuration mentions skillhost (looked at ${plural(facts.clients.length, 'file')} found of Claude Code, Claude Desktop, Codex, Gemini CLI, Cursor and VS Code)`,
      fix: 'README: skillhost mcp shows the configuration for each client',
    });
  return checks;
}
