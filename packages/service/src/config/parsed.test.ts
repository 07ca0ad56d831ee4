import { describe, expect, it } from 'vitest';
import { combine, configErrorLine, invalid, parsed, required } from './parsed.js';

describe('Parsed (docs/protocol.md#configuration: one line per bad value, each naming its variable)', () => {
  it('prints a fault as the line a user reads', () => {
    expect(configErrorLine({ variable: 'PORT', message: 'expected an integer 0..65535, got "80a"' })).toBe(
      'PORT: expected an integer 0..65535, got "80a"',
    );
  });

  it('combines readings into one value, or every fault in the order of the keys', () => {
    expect(combine({ host: parsed('::1'), port: parsed(8080) })).toEqual({
      ok: true,
      value: { host: '::1', port: 8080 },
    });
    expect(combine({ host: invalid('HOST', 'bad'), port: parsed(8080), level: invalid('LOG_LEVEL', 'loud') })).toEqual({
      ok: false,
      errors: [
        { variable: 'HOST', message: 'bad' },
        { variable: 'LOG_LEVEL', message: 'loud' },
      ],
    });
  });

  it('required: unset is a fault of its own, a fault stays the fault it was', () => {
    expect(required(parsed('x'), 'DATABASE_URL', 'required')).toEqual({ ok: true, value: 'x' });
    expect(required(parsed(undefined), 'DATABASE_URL', 'required')).toEqual(invalid('DATABASE_URL', 'required'));
    expect(required(invalid('DATABASE_URL', 'not postgres'), 'DATABASE_URL', 'required')).toEqual(
      invalid('DATABASE_URL', 'not postgres'),
    );
  });
});
