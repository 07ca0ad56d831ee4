import { describe, expect, it } from 'vitest';
import { holdRuntime } from './runtime-holder.js';

/** A runtime that counts its openings and closings; `fail` makes the next openings reject. */
function fakeOpener() {
  const state = { opened: 0, closed: 0, fail: false };
  const open = async () => {
    await Promise.resolve();
    if (state.fail) throw new Error('cannot open');
    state.opened += 1;
    return {
      id: state.opened,
      close: async () => {
        state.closed += 1;
      },
    };
  };
  return { state, open };
}

describe('holdRuntime (one runtime per container, docs: runtime-holder.ts)', () => {
  it('opens nothing until asked, once for concurrent first calls, and reuses it', async () => {
    const { state, open } = fakeOpener();
    const held = holdRuntime(open);
    expect(state.opened).toBe(0);
    const first = await Promise.all([held.get(), held.get(), held.get()]);
    expect(first.map((runtime) => runtime.id)).toEqual([1, 1, 1]);
    expect((await held.get()).id).toBe(1);
    expect(state.opened).toBe(1);
  });

  it('does not keep a failed opening: the next call tries again', async () => {
    const { state, open } = fakeOpener();
    const held = holdRuntime(open);
    state.fail = true;
    await expect(held.get()).rejects.toThrow('cannot open');
    await expect(held.get()).rejects.toThrow('cannot open');
    state.fail = false;
    expect((await held.get()).id).toBe(1);
    // Closing after failures closes only what opened.
    await held.close();
    expect(state.closed).toBe(1);
  });

  it('close closes the runtime once (even while it is opening), and the next call opens a new one', async () => {
    const { state, open } = fakeOpener();
    const held = holdRuntime(open);
    const opening = held.get();
    await held.close();
    expect((await opening).id).toBe(1);
    expect(state.closed).toBe(1);
    await held.close();
    expect(state.closed).toBe(1);
    expect((await held.get()).id).toBe(2);
  });
});
