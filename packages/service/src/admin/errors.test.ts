import { describe, expect, it } from 'vitest';
import { AdminError, adminError, isAdminError, storeUnavailable } from './errors.js';

describe('admin errors: one table of code, message and class', () => {
  it.each([
    [adminError('INVALID_FIELD', 'sites', 'is required'), 'invalid', 'sites: is required'],
    [adminError('PRODUCT_NOT_FOUND', 'nope'), 'not-found', 'no product nope'],
    [adminError('KEY_NOT_FOUND', 'ZZZZ'), 'not-found', 'no key ending in ZZZZ'],
    [
      adminError('PRODUCT_EXISTS', 'theme'),
      'conflict',
      'product id theme is taken; product ids are one namespace for the whole service',
    ],
    [
      adminError('DEV_KEY_EXISTS', 'theme'),
      'conflict',
      'product theme already has a live dev key; regenerate it instead',
    ],
    [adminError('KEY_NOT_ALIVE', 'ABCD', 'revocation'), 'conflict', 'key ABCD is no longer alive (revocation)'],
    [adminError('DOMAIN_NOT_BOUND', 'ABCD', 'c.fr'), 'conflict', 'key ABCD is not bound to c.fr'],
    [
      adminError('TOO_MANY_DOMAINS', 'ABCD', 2, 'd.fr', 3),
      'conflict',
      'key ABCD allows 2 domain(s); d.fr would make 3',
    ],
    [storeUnavailable(new Error('down')), 'unavailable', 'the key store is unavailable; try again later'],
    [adminError('OPERATOR_ONLY', 'add authors'), 'forbidden', "only the operator's token may add authors"],
    [adminError('OTHER_AUTHOR', 'alice'), 'forbidden', 'author: this token creates products of author alice only'],
    [adminError('AUTHOR_EXISTS', 'alice'), 'conflict', 'author alice already exists'],
    [adminError('AUTHOR_NOT_FOUND', 'bob'), 'not-found', 'no author bob'],
    [adminError('TOKEN_NOT_FOUND', 'alice'), 'not-found', 'author alice has no such token'],
    [
      adminError('OTHER_AUTHOR_WEBHOOK', 'alice'),
      'forbidden',
      'author: this token manages webhooks of author alice only',
    ],
    [adminError('WEBHOOK_NOT_FOUND', 'wh_x'), 'not-found', 'no webhook wh_x'],
    [adminError('WEBHOOK_NOT_FOUND', null), 'not-found', 'no such webhook'],
    [adminError('DELIVERY_NOT_FOUND', 'wh_x', 'dlv_y'), 'not-found', 'webhook wh_x has no delivery dlv_y'],
    [adminError('DELIVERY_NOT_FOUND', 'wh_x', null), 'not-found', 'webhook wh_x has no such delivery'],
    [
      adminError('TOO_MANY_WEBHOOKS', 'alice', 10),
      'conflict',
      'author alice already has 10 webhook endpoint(s), the most allowed (LICENCE_WEBHOOKS_PER_AUTHOR=10); remove one first',
    ],
  ])('%s', (error, errorClass, message) => {
    expect(error).toBeInstanceOf(AdminError);
    expect(error.name).toBe('AdminError');
    expect(error.errorClass).toBe(errorClass);
    expect(error.message).toBe(message);
  });

  it('keeps the code, and the cause of a store fault for the log', () => {
    const cause = new Error('connection refused');
    const error = storeUnavailable(cause);
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.cause).toBe(cause);
    expect(adminError('KEY_NOT_FOUND', 'ZZZZ').code).toBe('KEY_NOT_FOUND');
    expect(adminError('KEY_NOT_FOUND', 'ZZZZ').cause).toBeUndefined();
  });

  it('isAdminError', () => {
    expect(isAdminError(adminError('PRODUCT_NOT_FOUND', 'p'))).toBe(true);
    expect(isAdminError(new Error('no product p'))).toBe(false);
    expect(isAdminError('no product p')).toBe(false);
  });
});
