// The one preflight of the browser suite, run as its project's globalSetup (so only when the run
// includes the suite): is Debian's Chromium there, and does it start headless under
// playwright-core? Its plan goes to the tests (setup.ts fails or skips them) and to the summary.
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, launchChromium } from '../../scripts/ui-browser.mjs';
import { chromiumMissing, planBrowserSuite } from '../helpers/browser-suite.js';
import type { PreflightStatus } from '../helpers/suite-plan.js';

async function preflight(): Promise<PreflightStatus> {
  if (!existsSync(CHROMIUM_PATH)) return chromiumMissing(CHROMIUM_PATH);
  try {
    const browser = await launchChromium();
    const version = browser.context.browser()?.version() ?? 'unknown version';
    await browser.close();
    return { available: true, reason: `chromium ${version}` };
  } catch (error) {
    return {
      available: false,
      reason: `chromium at ${CHROMIUM_PATH} does not start headless: ${(error as Error).message.split('\n')[0]}`,
    };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('suitePlan', planBrowserSuite(process.env, await preflight()));
}
