import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/testing/index.js';

describe('createFakeClock', () => {
  it('starts at a fixed time and stays there', () => {
    const clock = createFakeClock();
    expect(clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('starts where told, from a Date, text or milliseconds', () => {
    expect(createFakeClock('2024-02-29T12:00:00Z').now().toISOString()).toBe(
      '2024-02-29T12:00:00.000Z',
    );
    expect(
      createFakeClock(new Date(Date.UTC(2030, 5, 1)))
        .now()
        .getUTCFullYear(),
    ).toBe(2030);
    expect(createFakeClock(0).now().getTime()).toBe(0);
    expect(() => createFakeClock('not a time')).toThrow(RangeError);
  });

  it('moves with advance and set only', () => {
    const clock = createFakeClock(1000);
    clock.advance(250);
    expect(clock.now().getTime()).toBe(1250);
    clock.advance(-50);
    expect(clock.now().getTime()).toBe(1200);
    clock.set('2026-03-01T00:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
  });

  it('hands out a new Date each time, and works detached from the clock object', () => {
    const { now } = createFakeClock(5000);
    const first = now();
    first.setTime(0);
    expect(now().getTime()).toBe(5000);
    expect(now()).not.toBe(now());
  });
});
