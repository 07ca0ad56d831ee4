import { describe, expect, it } from 'vitest';
import { createTestClock } from './test-clock.js';

describe('createTestClock', () => {
  it('moves by whole seconds and can be set', () => {
    const clock = createTestClock(1_000);
    clock.advance(2);
    expect(clock.now()).toBe(3_000);
    clock.set(42);
    expect(clock.now()).toBe(42);
  });
});
