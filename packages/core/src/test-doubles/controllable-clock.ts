import type { Clock } from '../ports/clock.js';

/** A clock tests move by hand: expiry of links, temporary files and idempotency records without waiting. */
export type ControllableClock = Clock & {
  /** Moves time forward (or back, with a negative amount). */
  advance(ms: number): void;
  set(date: Date): void;
};

export const createControllableClock = (start: Date = new Date()): ControllableClock => {
  let current = start.getTime();
  return {
    // A fresh Date each time, so a caller mutating it cannot move the clock.
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
};
