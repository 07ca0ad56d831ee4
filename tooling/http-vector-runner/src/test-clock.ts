/**
 * A service clock the test moves (the `Clock` port of @licence/service speaks milliseconds).
 * The HTTP vectors' `{"advance": N}` steps move it by N seconds (notes of http.json).
 */
export interface TestClock {
  now(): number;
  /** Moves the clock by whole seconds. */
  advance(seconds: number): void;
  /** Sets the clock to `ms` milliseconds since the epoch. */
  set(ms: number): void;
}

export function createTestClock(startMs: number): TestClock {
  let current = startMs;
  return {
    now: () => current,
    advance: (seconds) => {
      current += seconds * 1000;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
