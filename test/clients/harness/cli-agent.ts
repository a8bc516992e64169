import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAuditLog } from '../../../src/audit/reader.js';
import type { AuditRecord } from '../../../src/audit/trail.js';
import type { LoopEvent } from '../../../src/internal.js';
import { bin, root } from '../../helpers/built.js';
import type { ScriptedTurn } from '../../helpers/model-servers.js';
import { baseEnv, type ClientRun, runClient, type Scratch } from './run.js';

/**
 * A real command-line agent driven by skillhost's own driver (cli-agent-runner.mjs), in the
 * suite's namespace and under strace like every client: the runner is the "client" the harness
 * starts; it spawns the agent, which spawns `skillhost mcp`.
 */

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'cli-agent-runner.mjs');

export interface RunnerRecord {
  readonly type: string;
  readonly event?: LoopEvent;
  // biome-ignore lint/suspicious/noExplicitAny: the runner's records are arbitrary JSON.
  readonly [key: string]: any;
}

export interface DriverRun extends ClientRun {
  /** What the runner printed: probe, approvals, events, exit. */
  readonly records: readonly RunnerRecord[];
  readonly events: readonly LoopEvent[];
  /** The audit trail of the runner's own runtime (the permission decisions). */
  readonly driverAudit: readonly AuditRecord[];
}

export interface DriverRunOptions {
  readonly provider: 'claude' | 'gemini';
  readonly api: 'anthropic' | 'gemini';
  readonly turns: readonly ScriptedTurn[];
  readonly messages: readonly string[];
  readonly system: string;
  readonly policy: { readonly tools: readonly string[]; readonly deny?: readonly string[] };
  /** The scripted user at the approval prompt: the first answer whose `match` the summary holds. */
  readonly answers: readonly { readonly match: string; readonly decision: 'once' | 'denied' }[];
  readonly model?: string;
  readonly env: (modelUrl: string) => Record<string, string>;
  /** Writes what the agent's user would have set up in the scratch home. */
  readonly prepare?: (scratch: Scratch) => void;
}

export async function runDriver(options: DriverRunOptions): Promise<DriverRun> {
  let driverAuditLog = '';
  const run = await runClient({
    api: options.api,
    turns: options.turns,
    launch: ({ clients, scratch, modelUrl, server }) => {
      if (server.transport !== 'stdio') throw new Error('the driver runs skillhost mcp over stdio');
      driverAuditLog = join(dirname(scratch.auditLog), 'driver-audit.jsonl');
      options.prepare?.(scratch);
      const configFile = join(scratch.home, 'runner.json');
      writeFileSync(
        configFile,
        JSON.stringify({
          root,
          bin,
          provider: options.provider,
          command: options.provider === 'claude' ? clients.claude : clients.node,
          prefix: options.provider === 'claude' ? [] : [clients.gemini],
          skills: scratch.skills,
          project: scratch.project,
          auditLog: driverAuditLog,
          // skillhost mcp's own arguments, after the bin and `mcp`.
          serverArgs: server.args.slice(2),
          serverEnv: server.env,
          system: options.system,
          messages: options.messages,
          policy: options.policy,
          answers: options.answers,
          ...(options.model === undefined ? {} : { model: options.model }),
        }),
      );
      return {
        command: process.execPath,
        args: [RUNNER],
        env: { ...baseEnv(scratch), ...options.env(modelUrl), RUNNER_CONFIG: configFile },
      };
    },
  });
  const records = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RunnerRecord);
  return {
    ...run,
    records,
    events: records.flatMap((record) => (record.event === undefined ? [] : [record.event])),
    driverAudit: parseAuditLog(
      existsSync(driverAuditLog) ? readFileSync(driverAuditLog, 'utf8') : '',
    ).records,
  };
}
