import type { BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH: string;
export const CHROMIUM_ARGS: readonly string[];
export function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }>;
export function startUiProcess(
  home: string,
  extra?: readonly string[],
  options?: { project?: string },
): Promise<{ url: string; output(): string; stop(): Promise<number | null> }>;
