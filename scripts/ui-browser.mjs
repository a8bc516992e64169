// What the browser tests and `npm run ui:screenshots` share: `skillhost ui` started on a home
// (the built bin, on any free port), and Debian's Chromium started headless through
// playwright-core with a fresh profile: no browser is downloaded, nothing reaches the network.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The system's Chromium (Debian's `chromium` package), or SKILLHOST_CHROMIUM. */
export const CHROMIUM_PATH = process.env.SKILLHOST_CHROMIUM ?? '/usr/bin/chromium';

/** Headless, unsandboxed (a test machine's container), and silent on the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts Chromium with a fresh profile folder; `close()` ends it and removes the folder. */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'skillhost-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    offline: false,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `skillhost ui` over the example skills with the sessions and audit log of `home`;
 * resolves with the address it printed (token included) and a stop function (Ctrl-C).
 * `project` is a folder with the example `skills/` and `agents/` (default: examples/); the ui
 * starts in it when given.
 */
export async function startUiProcess(home, extra = [], options = {}) {
  const project = options.project ?? join(root, 'examples');
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist', 'cli', 'bin.js'),
      'ui',
      '--no-default-sources',
      '--skills',
      join(project, 'skills'),
      '--agents',
      join(project, 'agents'),
      ...extra,
    ],
    {
      env: { ...process.env, HOME: home, SKILLHOST_HOME: join(home, '.skillhost') },
      ...(options.project === undefined ? {} : { cwd: options.project }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const look = (chunk) => {
      output += chunk;
      const found = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(output);
      if (found !== null) resolve(found[1]);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => reject(new Error(`skillhost ui exited (${code}): ${output}`)));
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('close', (code) => resolve(code));
        child.kill('SIGINT');
      }),
  };
}
