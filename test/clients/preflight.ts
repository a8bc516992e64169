// The one preflight of the clients suite, run as its project's globalSetup (so only when the run
// includes the suite): can a loopback-only network namespace be made, can everything be traced,
// can scripts be sandboxed, and are the pinned clients in the cache (installed now if not)?
// Its plan goes to the tests (setup.ts fails or skips them) and to the summary reporter.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { probeBubblewrap } from '../../src/node/sandbox.js';
import { planClientsSuite } from '../helpers/clients-suite.js';
import type { PreflightStatus } from '../helpers/suite-plan.js';
import {
  ClientsUnavailable,
  ensureClients,
  type InstalledClients,
  type VersionRunner,
} from './harness/install.js';
import { Namespace } from './harness/namespace.js';

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** A namespace with only loopback, in which a process reaches the socket handed to us. */
async function probeNamespace(): Promise<PreflightStatus> {
  let namespace: Namespace;
  try {
    namespace = await Namespace.open();
  } catch (error) {
    const reason = (error as Error).message;
    return {
      available: false,
      reason: `cannot make a loopback-only network namespace: ${reason}`,
      hint: /ENOENT|not found/i.test(reason) ? 'apt-get install util-linux iproute2' : '',
    };
  }
  try {
    const reached = new Promise<boolean>((resolve) => {
      namespace.listener.handle.once('connection', (socket) => {
        socket.destroy();
        resolve(true);
      });
    });
    const probe = namespace.spawn({
      command: process.execPath,
      args: [
        '-e',
        `require('node:net').connect(${namespace.listener.port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', (e) => { console.error(e.message); process.exit(1); })`,
      ],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cwd: '/',
    });
    const exit = await probe.exited;
    if (exit.code !== 0 || !(await reached))
      return {
        available: false,
        reason: `a process in the namespace cannot reach 127.0.0.1: ${probe.stderr().trim()}`,
      };
    return { available: true, reason: 'namespace' };
  } finally {
    await namespace.close();
  }
}

function probeStrace(): PreflightStatus {
  const result = spawnSync('strace', ['-V'], { encoding: 'utf8' });
  return result.status === 0
    ? { available: true, reason: result.stdout.split('\n')[0] ?? 'strace' }
    : { available: false, reason: 'strace missing', hint: 'apt-get install strace' };
}

/** Runs each client's `--version` inside one loopback-only namespace, in a scratch home. */
async function versionsOffline(
  check: (runVersion: VersionRunner) => Promise<InstalledClients>,
): Promise<InstalledClients> {
  const namespace = await Namespace.open();
  const home = mkdtempSync(join(tmpdir(), 'skillhost-client-version-'));
  try {
    return await check(async (command, args) => {
      const started = namespace.spawn({
        command,
        args,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
        cwd: home,
      });
      const exit = await started.exited;
      return { code: exit.code, output: `${started.stdout()}${started.stderr()}` };
    });
  } finally {
    await namespace.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function preflight(): Promise<{ status: PreflightStatus; clients: InstalledClients | null }> {
  const bubblewrap = probeBubblewrap();
  if (!bubblewrap.available) {
    const missing = /\bis not installed\b/.test(bubblewrap.reason);
    return {
      status: missing
        ? { available: false, reason: 'bubblewrap missing', hint: 'apt-get install bubblewrap' }
        : { available: false, reason: bubblewrap.reason },
      clients: null,
    };
  }
  const strace = probeStrace();
  if (!strace.available) return { status: strace, clients: null };
  const namespace = await probeNamespace();
  if (!namespace.available) return { status: namespace, clients: null };
  try {
    const clients = await versionsOffline((runVersion) =>
      ensureClients(process.env, log, runVersion),
    );
    return { status: { available: true, reason: clients.versions.join(', ') }, clients };
  } catch (error) {
    if (!(error instanceof ClientsUnavailable)) throw error;
    return { status: { available: false, reason: error.message }, clients: null };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const { status, clients } = await preflight();
  project.provide('suitePlan', planClientsSuite(process.env, status));
  project.provide('clients', clients);
}
