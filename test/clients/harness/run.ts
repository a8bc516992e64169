import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { parseAuditLog } from '../../../src/audit/reader.js';
import type { AuditRecord } from '../../../src/audit/trail.js';
import { bin } from '../../helpers/built.js';
import {
  type ModelApi,
  type RecordedRequest,
  type ScriptedTurn,
  startModelServer,
  type UnroutedRequest,
} from '../../helpers/model-servers.js';
import { tempDir } from '../../helpers/temp.js';
import type { InstalledClients } from './install.js';
import { type Exit, Namespace } from './namespace.js';
import { writeSkills } from './skills.js';
import {
  findProcess,
  initializeAnsweredAt,
  parseTrace,
  straceArgs,
  type Trace,
  type TracedProcess,
} from './trace.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The installed clients (test/clients/preflight.ts); null when the suite cannot run. */
    clients: InstalledClients | null;
  }
}

/** The runtime's tools, as the server names them. */
export type McpTool =
  | 'skillhost_activate'
  | 'skillhost_read'
  | 'skillhost_run'
  | 'skillhost_search';

/** The clients' paths, from the preflight. */
export function installedClients(): InstalledClients {
  const clients = inject('clients');
  if (clients === null) throw new Error('the clients suite preflight found no clients');
  return clients;
}

/** A run's folders: the client's home, its working folder (the "project"), the skills. */
export interface Scratch {
  readonly home: string;
  readonly project: string;
  readonly skills: string;
  readonly auditLog: string;
  readonly trace: string;
}

function makeScratch(skillsFolder: string | undefined): Scratch {
  const root = tempDir('skillhost-client-');
  const skills = skillsFolder ?? writeSkills(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  return {
    home,
    project,
    skills,
    auditLog: join(root, 'audit.jsonl'),
    trace: join(root, 'strace.txt'),
  };
}

/** How the client reaches the server: it spawns it (stdio), or connects to it (Streamable HTTP). */
export type ServerEndpoint =
  | {
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
    }
  | { readonly transport: 'http'; readonly url: string };

/** `skillhost mcp`'s arguments over the scratch skills, with its audit log. */
function serverArgs(scratch: Scratch, extra: readonly string[] = []): string[] {
  return [
    bin,
    'mcp',
    ...extra,
    '--no-default-sources',
    '--skills',
    scratch.skills,
    '--audit-log',
    scratch.auditLog,
  ];
}

function serverEnv(scratch: Scratch): Record<string, string> {
  return { SKILLHOST_HOME: join(scratch.home, '.skillhost') };
}

/** What a client needs to run: its command line and its whole environment. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface LaunchContext {
  readonly clients: InstalledClients;
  readonly scratch: Scratch;
  /** The fake model API: `http://127.0.0.1:PORT` inside the namespace. */
  readonly modelUrl: string;
  readonly server: ServerEndpoint;
}

export interface RunOptions {
  /** The model API the client speaks, and what the model answers, turn by turn. */
  readonly api?: ModelApi;
  readonly turns?: readonly ScriptedTurn[];
  readonly transport?: 'stdio' | 'http';
  /** The skills folder to serve (default: the fixture skills of skills.ts, written afresh). */
  readonly skills?: string;
  /**
   * Interrupts the client as a terminal's Ctrl-C does: once the fake model API has received
   * `afterRequests` requests, `signal` goes to the client's whole process group (the client runs
   * as its own group).
   */
  readonly interrupt?: { readonly afterRequests: number; readonly signal: NodeJS.Signals };
  /** Writes the client's settings and answers its command line. */
  readonly launch: (context: LaunchContext) => Launch;
  readonly timeoutMs?: number;
}

export interface ClientRun {
  readonly exit: Exit;
  readonly stdout: string;
  readonly stderr: string;
  /** Every request the fake model API answered, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests to paths the fake does not serve. */
  readonly unrouted: readonly UnroutedRequest[];
  readonly trace: Trace;
  /** The MCP server process the client spawned (stdio), as traced. */
  readonly server: TracedProcess | undefined;
  /** Seconds from the server's execve to its answer to `initialize` (stdio). */
  readonly initializeSeconds: number | undefined;
  /** The server's exit after the harness stopped it with SIGTERM (HTTP). */
  readonly httpServerExit: Exit | undefined;
  /** The server's audit records. */
  readonly audit: readonly AuditRecord[];
  /** Torn or malformed lines in the audit log. */
  readonly auditProblems: readonly string[];
  /** The client's output, for assertion messages. */
  readonly transcript: string;
}

/** The environment every client starts from: nothing of the test run's but PATH. */
export function baseEnv(scratch: Scratch): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: scratch.home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
}

/** `node dist/cli/bin.js mcp …` itself (not a client whose own arguments name it). */
function isSkillhostServer(argv: readonly string[]): boolean {
  return argv[1] === bin && argv[2] === 'mcp';
}

function timeout<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(new Error(`the client did not finish within ${ms / 1000} s`));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

let kept = 0;

/** With SKILLHOST_CLIENTS_DEBUG=DIR, each run's trace, requests and output are copied there. */
function keepForDebugging(
  scratch: Scratch,
  trace: string,
  requests: readonly RecordedRequest[],
  stdout: string,
  stderr: string,
): void {
  const folder = process.env.SKILLHOST_CLIENTS_DEBUG;
  if (folder === undefined || folder === '') return;
  kept += 1;
  const into = join(folder, `${process.pid}-${kept}`);
  mkdirSync(into, { recursive: true });
  writeFileSync(join(into, 'strace.txt'), trace);
  writeFileSync(join(into, 'requests.json'), JSON.stringify(requests, null, 2));
  writeFileSync(join(into, 'output.txt'), `${stdout}\n--- stderr\n${stderr}`);
  if (existsSync(scratch.auditLog))
    writeFileSync(join(into, 'audit.jsonl'), readFileSync(scratch.auditLog));
}

/**
 * Runs one client once, in a fresh loopback-only namespace, under strace: the fake model API
 * answers the scripted turns; `skillhost mcp` (the built bin) serves the scratch skills, spawned
 * by the client (stdio) or started by the harness in the namespace (HTTP).
 */
export async function runClient(options: RunOptions): Promise<ClientRun> {
  const clients = installedClients();
  const scratch = makeScratch(options.skills);
  const namespace = await Namespace.open();
  try {
    const model = await startModelServer(
      options.api === undefined ? {} : { [options.api]: options.turns ?? [] },
      { listen: namespace.listener },
    );
    let server: ServerEndpoint;
    let httpServer: ReturnType<Namespace['spawn']> | undefined;
    if (options.transport === 'http') {
      httpServer = namespace.spawn({
        command: process.execPath,
        args: serverArgs(scratch, ['--http', '0']),
        env: { ...baseEnv(scratch), ...serverEnv(scratch) },
        cwd: scratch.project,
      });
      const [, url] = await httpServer.waitFor(/serving MCP at (http:\/\/\S+)/, 15_000);
      server = { transport: 'http', url: url as string };
    } else {
      server = {
        transport: 'stdio',
        command: process.execPath,
        args: serverArgs(scratch),
        env: serverEnv(scratch),
      };
    }
    const launch = options.launch({ clients, scratch, modelUrl: model.url, server });
    const client = namespace.spawn({
      command: 'strace',
      args: [...straceArgs(scratch.trace), launch.command, ...launch.args],
      env: { ...launch.env },
      cwd: scratch.project,
      detached: options.interrupt !== undefined,
    });
    const interrupt = options.interrupt;
    if (interrupt !== undefined) {
      const check = setInterval(() => {
        if (model.requests.length < interrupt.afterRequests) return;
        clearInterval(check);
        client.signalGroup(interrupt.signal);
      }, 20);
      void client.exited.then(() => clearInterval(check));
    }
    const exit = await timeout(client.exited, options.timeoutMs ?? 90_000, () =>
      client.signal('SIGKILL'),
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${client.stdout()}\n${client.stderr()}`);
    });
    let httpServerExit: Exit | undefined;
    if (httpServer !== undefined) {
      httpServer.signal('SIGTERM');
      httpServerExit = await timeout(httpServer.exited, 10_000, () => httpServer.signal('SIGKILL'));
    }
    await model.close();
    const traceText = existsSync(scratch.trace) ? readFileSync(scratch.trace, 'utf8') : '';
    keepForDebugging(scratch, traceText, model.requests, client.stdout(), client.stderr());
    const trace = parseTrace(traceText);
    const traced = findProcess(trace, isSkillhostServer);
    const answered = traced === undefined ? undefined : initializeAnsweredAt(trace, traced.pid);
    const auditLog = parseAuditLog(
      existsSync(scratch.auditLog) ? readFileSync(scratch.auditLog, 'utf8') : '',
    );
    const transcript = `exit ${exit.code ?? exit.signal}\n--- stdout\n${client.stdout()}\n--- stderr\n${client.stderr()}`;
    return {
      exit,
      stdout: client.stdout(),
      stderr: client.stderr(),
      requests: model.requests,
      unrouted: model.unrouted,
      trace,
      server: traced,
      initializeSeconds:
        traced === undefined || answered === undefined ? undefined : answered - traced.started,
      httpServerExit,
      audit: auditLog.records,
      auditProblems: auditLog.problems.map((problem) => `${problem.line}: ${problem.message}`),
      transcript,
    };
  } finally {
    await namespace.close();
  }
}
