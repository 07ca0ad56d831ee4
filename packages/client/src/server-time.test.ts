import type { SignedEnvelope } from '@licence/core';
import { describe, expect, it } from 'vitest';
import { positiveVerdict } from '../test/positive-verdict.js';
import { isReceipt, serverTime } from './server-time.js';

const EMIS = 1_767_225_600;
const envelope = { donnees: positiveVerdict(EMIS), signature: '' } satisfies SignedEnvelope;

describe('serverTime', () => {
  it('counts the time elapsed since receipt on the client clock, from emis', () => {
    const recu = EMIS - 730 * 86_400; // a client two years behind
    expect(serverTime(recu, envelope, recu)).toBe(EMIS);
    expect(serverTime(recu + 86_399, envelope, recu)).toBe(EMIS + 86_399);
    const ahead = EMIS + 40 * 86_400; // forty days ahead
    expect(serverTime(ahead + 10, envelope, ahead)).toBe(EMIS + 10);
  });

  it('is the client clock itself without a verdict or a usable receipt', () => {
    expect(serverTime(100, null, 50)).toBe(100);
    for (const recu of [undefined, null, '50', -1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      expect(serverTime(EMIS + 5, envelope, recu)).toBe(EMIS + 5);
    }
  });

  it('ignores a receipt later than the clock (the clock went back, or the file was edited)', () => {
    expect(serverTime(EMIS, envelope, EMIS + 1)).toBe(EMIS);
    expect(serverTime(EMIS - 3600, envelope, EMIS)).toBe(EMIS - 3600);
  });

  it('falls back to the clock when the sum would not be a safe integer', () => {
    const huge = { ...envelope, donnees: { ...envelope.donnees, emis: Number.MAX_SAFE_INTEGER } };
    expect(serverTime(10, huge, 0)).toBe(10);
  });

  it('knows a receipt when it sees one', () => {
    expect(isReceipt(0)).toBe(true);
    expect(isReceipt(EMIS)).toBe(true);
    expect(isReceipt(-1)).toBe(false);
    expect(isReceipt('1')).toBe(false);
  });
});
