import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleTimer } from '../../src/node/cli-process.js';

/** The idle timer of a command-line agent's turn, on a fake clock: silence counts, not the turn's length. */
describe('the idle timer of a turn', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires only after a silence as long as its limit; every event starts the silence again', async () => {
    vi.useFakeTimers();
    let fired = 0;
    const timer = new IdleTimer(1_000, () => {
      fired += 1;
    });
    timer.start();
    // Ten seconds of a turn, an event every 900 ms: never idle.
    for (let elapsed = 0; elapsed < 10_000; elapsed += 900) {
      vi.advanceTimersByTime(900);
      timer.touch();
    }
    expect(fired).toBe(0);
    vi.advanceTimersByTime(999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    timer.stop();
  });

  it('does not count the time skillhost waits for an approval', async () => {
    vi.useFakeTimers();
    let fired = 0;
    const timer = new IdleTimer(1_000, () => {
      fired += 1;
    });
    timer.start();
    let answer: (() => void) | undefined;
    const waiting = timer.paused(() => new Promise<void>((resolve) => (answer = resolve)));
    vi.advanceTimersByTime(60_000);
    expect(fired).toBe(0);
    answer?.();
    await waiting;
    vi.advanceTimersByTime(999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
    timer.stop();
  });
});
