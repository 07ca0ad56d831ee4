import { describe, expect, it } from 'vitest';
import { parseIpHost } from './ip-address.js';
import { isTestHost, isTestIpAddress, TEST_PREFIXES, TEST_SUFFIXES } from './test-host.js';

// Registrable domains are given by hand here (what the PSL says), so that these tests check the
// rules of docs/protocol.md#test-hosts alone; parse-host.test.ts runs the whole pipeline.
describe('isTestHost: names (docs/protocol.md#test-hosts)', () => {
  it('lists exactly the suffixes and prefixes of docs/protocol.md#test-hosts', () => {
    expect([...TEST_SUFFIXES].sort()).toEqual(
      ['example', 'home.arpa', 'internal', 'invalid', 'local', 'localhost', 'test'].sort(),
    );
    expect([...TEST_PREFIXES].sort()).toEqual(['dev', 'preprod', 'staging']);
  });

  it.each([
    ['a.localhost', 'a.localhost'],
    ['monsite.local', 'monsite.local'],
    ['monsite.test', 'monsite.test'],
    ['monsite.example', 'monsite.example'],
    ['monsite.invalid', 'monsite.invalid'],
    ['app.corp.internal', 'corp.internal'],
    ['nas.home.arpa', 'nas.home.arpa'],
  ])('%s ends in a test suffix', (hote, registrable) => {
    expect(isTestHost(hote, registrable)).toBe(true);
  });

  // Decision (docs/protocol.md#test-hosts lists `.home.arpa`): the name `home.arpa` itself is a
  // test host too (RFC 8375 reserves the whole zone), though the PSL makes it a public suffix.
  it('takes home.arpa itself as a test host, though it has no registrable domain', () => {
    expect(isTestHost('home.arpa', null)).toBe(true);
  });

  it.each(['localhost', 'intranet', 'fr', 'com', 'www', 'serveur-nas', 'local'])(
    'single label %s is a test host',
    (hote) => {
      expect(isTestHost(hote, null)).toBe(true);
    },
  );

  it.each([
    ['dev.exemple.fr', 'exemple.fr'],
    ['staging.exemple.fr', 'exemple.fr'],
    ['preprod.exemple.fr', 'exemple.fr'],
    ['staging.x.co.uk', 'x.co.uk'],
    ['dev.www.exemple.fr', 'exemple.fr'],
    ['preprod.boutique.myshopify.com', 'boutique.myshopify.com'],
  ])('%s starts with a prefix below its registrable domain %s', (hote, registrable) => {
    expect(isTestHost(hote, registrable)).toBe(true);
  });

  it.each([
    ['dev.fr', 'dev.fr', 'the prefix label is the registrable domain itself'],
    ['dev.co.uk', 'dev.co.uk', 'same, under a two-label suffix'],
    ['dev.myshopify.com', 'dev.myshopify.com', 'same, under a private suffix'],
    ['a.dev.exemple.fr', 'exemple.fr', 'dev is not the first label'],
    ['devexemple.fr', 'devexemple.fr', 'substring of a label'],
    ['mydev.exemple.fr', 'exemple.fr', 'end of a label'],
    ['dev-boutique.exemple.fr', 'exemple.fr', 'dev followed by a hyphen'],
    ['test.exemple.fr', 'exemple.fr', 'test is a suffix, not a prefix'],
    ['exemple.test.fr', 'test.fr', 'test as a middle label'],
    ['exemple.dev', 'exemple.dev', 'dev is a real TLD'],
    ['localhost.fr', 'localhost.fr', 'localhost as a first label'],
    ['exemple.localhosts', 'exemple.localhosts', 'suffix not aligned on a label'],
    ['monlocal.fr', 'monlocal.fr', 'local inside a label'],
    ['exemple.fr', 'exemple.fr', 'plain site'],
  ])('%s is a real site (%s)', (hote, registrable) => {
    expect(isTestHost(hote, registrable)).toBe(false);
  });

  it('needs a registrable domain for the prefix rule', () => {
    // A prefixed name with no registrable domain is not made a test host by its prefix: the
    // public-suffix rule of docs/protocol.md#host-normalisation then refuses it.
    expect(isTestHost('dev.co.uk', null)).toBe(false);
  });

  it('does not trust a registrable domain that is not a label-aligned suffix of the host', () => {
    expect(isTestHost('dev.exemple.fr', 'ample.fr')).toBe(false);
    expect(isTestHost('dev.exemple.fr', 'autre.fr')).toBe(false);
  });

  it('refuses a bracketed host that is not an IPv6 address', () => {
    expect(isTestHost('[localhost]', null)).toBe(false);
  });
});

describe('isTestHost: IP addresses (docs/protocol.md#test-hosts)', () => {
  it.each([
    '0.0.0.0',
    '127.0.0.0',
    '127.0.0.1',
    '127.255.255.255',
    '10.0.0.0',
    '10.255.255.255',
    '172.16.0.0',
    '172.31.255.255',
    '192.168.0.0',
    '192.168.255.255',
    '169.254.0.0',
    '169.254.255.255',
    '100.64.0.0',
    '100.127.255.255',
    '[::]',
    '[::1]',
    '[fc00::]',
    '[fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]',
    '[fe80::]',
    '[febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff]',
    '[::ffff:7f00:1]',
    '[::ffff:a00:1]',
    '[::ffff:ac10:1]',
    '[::ffff:c0a8:101]',
    '[::ffff:a9fe:1]',
    '[::ffff:6440:1]',
    '[::ffff:0:0]',
  ])('%s is a test host', (hote) => {
    expect(isTestHost(hote, null)).toBe(true);
  });

  it.each([
    '0.0.0.1',
    '126.255.255.255',
    '128.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '8.8.8.8',
    // Documentation ranges (RFC 5737, RFC 3849) are not test hosts (docs/protocol.md#test-hosts).
    '192.0.2.1',
    '198.51.100.1',
    '203.0.113.1',
    '[2001:db8::1]',
    '[::2]',
    '[fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]',
    '[fe00::]',
    '[fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff]',
    '[fec0::1]',
    '[::ffff:808:808]',
    // IPv4-compatible (not mapped) is not one of the listed forms.
    '[::7f00:1]',
  ])('%s is not a test host', (hote) => {
    expect(isTestHost(hote, hote)).toBe(false);
  });

  it('isTestIpAddress agrees with isTestHost on parsed addresses', () => {
    for (const hote of ['127.0.0.1', '8.8.8.8', '[::1]', '[2001:db8::1]', '[::ffff:a00:1]']) {
      const ip = parseIpHost(hote);
      expect(ip).not.toBeNull();
      if (ip !== null) expect(isTestIpAddress(ip)).toBe(isTestHost(hote, null));
    }
  });
});

describe('isTestHost: built-in staging patterns (docs/protocol.md#staging-hosts)', () => {
  it.each([
    ['monsite.kinsta.cloud', 'kinsta.cloud'],
    ['dev-monsite.pantheonsite.io', 'dev-monsite.pantheonsite.io'],
    ['x.monsite.flywheelstaging.com', 'flywheelstaging.com'],
    ['abc.123.myftpupload.com', 'myftpupload.com'],
  ])('%s matches a built-in pattern', (hote, registrable) => {
    expect(isTestHost(hote, registrable)).toBe(true);
  });

  it.each([
    ['kinsta.cloud', 'kinsta.cloud'],
    ['live-monsite.pantheonsite.io', 'live-monsite.pantheonsite.io'],
    ['notflywheelstaging.com', 'notflywheelstaging.com'],
    ['kinsta.cloud.exemple.fr', 'exemple.fr'],
  ])('%s matches none', (hote, registrable) => {
    expect(isTestHost(hote, registrable)).toBe(false);
  });
});
