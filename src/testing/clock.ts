/** A clock that moves only when told to. */
export interface FakeClock {
  /** The current time, as a new Date each call (pass `clock.now` as a runtime's `now`). */
  readonly now: () => Date;
  /** Moves the clock forward by `ms` milliseconds (a negative value moves it back). */
  advance(ms: number): void;
  /** Sets the clock to a time. */
  set(time: Date | string | number): void;
}

/** 2025-01-01T00:00:00.000Z: a fixed start, so that records and output are the same every run. */
const DEFAULT_START = Date.UTC(2025, 0, 1);

function millisecondsOf(time: Date | string | number): number {
  const value = time instanceof Date ? time.getTime() : new Date(time).getTime();
  if (!Number.isFinite(value)) throw new RangeError(`Not a valid time: ${String(time)}`);
  return value;
}

/**
 * A fake clock for the runtime's injected `now`: it starts at `start` (default
 * 2025-01-01T00:00:00Z) and stays there until `advance` or `set` moves it.
 *
 * @example const clock = createFakeClock('2025-06-01T12:00:00Z'); clock.advance(1000);
 */
export function createFakeClock(start: Date | string | number = DEFAULT_START): FakeClock {
  let current = millisecondsOf(start);
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      if (!Number.isFinite(ms)) throw new RangeError(`Not a number of milliseconds: ${ms}`);
      current += ms;
    },
    set: (time) => {
      current = millisecondsOf(time);
    },
  };
}
