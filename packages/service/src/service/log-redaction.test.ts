import { describe, expect, it } from 'vitest';
import { LOG_REDACTION, redactLogFields } from './log-redaction.js';

describe('LOG_REDACTION (docs/protocol.md#privacy)', () => {
  it('names the secrets a log line must never show, how deep they are looked for and what replaces them', () => {
    expect(LOG_REDACTION).toEqual({
      fields: ['authorization', 'cle', 'signingKey', 'seed', 'token', 'adminToken', 'secret'],
      depth: 2,
      censor: '[redacted]',
    });
  });

  it('is frozen: a logger reads the rule, never changes it for every other', () => {
    expect(Object.isFrozen(LOG_REDACTION)).toBe(true);
    expect(Object.isFrozen(LOG_REDACTION.fields)).toBe(true);
  });
});

describe('redactLogFields', () => {
  it('replaces every field of LOG_REDACTION at the top level', () => {
    const fields = Object.fromEntries(LOG_REDACTION.fields.map((name) => [name, `a ${name}`]));
    expect(redactLogFields({ ...fields, route: '/api/licence' })).toEqual({
      ...Object.fromEntries(LOG_REDACTION.fields.map((name) => [name, LOG_REDACTION.censor])),
      route: '/api/licence',
    });
  });

  it('looks `depth` levels down, arrays included, and no further', () => {
    const line = {
      req: { headers: { authorization: 'Bearer x', host: 'a.fr' } },
      bodies: [{ cle: 'ABCDE' }],
      deep: { a: { b: { cle: 'ABCDE' } } },
    };
    expect(redactLogFields(line)).toEqual({
      req: { headers: { authorization: '[redacted]', host: 'a.fr' } },
      bodies: [{ cle: '[redacted]' }],
      deep: { a: { b: { cle: 'ABCDE' } } },
    });
  });

  it('writes an Error as its name, message and stack, and leaves the given object as it was', () => {
    const line = { err: new TypeError('boom'), token: 't' };
    const redacted = redactLogFields(line);
    expect(redacted.err).toMatchObject({ name: 'TypeError', message: 'boom' });
    expect(redacted.token).toBe('[redacted]');
    expect(line.token).toBe('t');
  });
});
