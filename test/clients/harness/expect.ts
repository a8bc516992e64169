import { expect } from 'vitest';
import type { ClientRun } from './run.js';
import { outsideLoopback } from './trace.js';

/**
 * What every client run must show: the client finished (exit 0), the fake model API got at least
 * `requests` requests, and nothing in the run (client, server, scripts) tried to reach an address
 * outside loopback.
 */
export function expectCompletedOffline(run: ClientRun, requests: number): void {
  expect(run.exit, run.transcript).toEqual({ code: 0, signal: null });
  expect(run.requests.length, run.transcript).toBeGreaterThanOrEqual(requests);
  expect(outsideLoopback(run.trace), 'addresses outside loopback the run tried to reach').toEqual(
    [],
  );
}

/** A run made once, by the first test that needs it, and shared by the tests after it. */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
