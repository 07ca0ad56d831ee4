import { describe, expect, it } from 'vitest';
import { hostPort } from './host-port.js';

describe('hostPort', () => {
  it('writes a name or an IPv4 address as it is, and an IPv6 address in brackets', () => {
    expect(hostPort('127.0.0.1', 8080)).toBe('127.0.0.1:8080');
    expect(hostPort('localhost', 0)).toBe('localhost:0');
    expect(hostPort('::1', 8080)).toBe('[::1]:8080');
  });
});
