import { describe, expect, it } from 'vitest';
import { callbackUrlProblem, isPublicAddress } from './address-policy.js';

// Real public receivers of both families: the first policy refused every IPv4 address (issue 10, defect 1).
const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '9.9.9.9',
  '208.67.222.222',
  '93.184.215.14',
  '151.101.1.69',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '198.20.0.1',
  '223.255.255.254',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2620:fe::fe',
  '2a00:1450:4001:82b::200e',
  '2001:200::1', // just above 2001::/23
  '::ffff:8.8.8.8', // IPv4-mapped form of a public address
  '::ffff:808:808',
  '64:ff9b::8.8.8.8', // NAT64 of a public address
  '2002:808:808::1', // 6to4 of 8.8.8.8
  '2001:0:808:808::f7f7:f7f7', // Teredo: server 8.8.8.8, client ~f7f7:f7f7 = 8.8.8.8
];

const PRIVATE = [
  // IPv4
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1', // CGNAT
  '100.127.255.255',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254', // cloud metadata
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1', // documentation
  '192.88.99.1',
  '192.168.1.1',
  '198.18.0.1', // benchmarking
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1', // multicast
  '239.255.255.250',
  '240.0.0.1', // reserved
  '255.255.255.255',
  // IPv6
  '::',
  '::1',
  '::127.0.0.1', // IPv4-compatible (deprecated), listed in the issue
  '::8.8.8.8', // IPv4-compatible forms are never routable, whatever they embed
  '::ffff:127.0.0.1', // IPv4-mapped loopback
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:0:7f00:1', // IPv4-translated, listed in the issue
  '64:ff9b::127.0.0.1', // NAT64 of loopback
  '64:ff9b::a00:1',
  '64:ff9b:1::8.8.8.8', // local-use NAT64 64:ff9b:1::/48, listed in the issue
  '100::1', // discard-only
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '2002:a00:1::', // 6to4 of 10.0.0.1
  '2002:c0a8:101::1', // 6to4 of 192.168.1.1
  '2001:0:7f00:1::1', // Teredo with a loopback server
  '2001:0:808:808::80ff:fefe', // Teredo whose client is ~80ff:fefe = 127.0.1.1
  '2001:2::1', // benchmarking
  '2001:10::1', // ORCHID
  '2001:db8::1', // documentation
  '3fff::1', // documentation (RFC 9637)
  'fc00::1', // ULA
  'fd12:3456:789a::1',
  'fe80::1', // link-local
  'fe80::1%eth0',
  'fec0::1', // site-local, listed in the issue
  'feff::1',
  'ff02::1', // multicast
  'ff0e::1',
  '4000::1', // not yet allocated
  // Not addresses at all
  'localhost',
  'example.com',
  '',
];

describe('the callback address policy (DESIGN.md section 5)', () => {
  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(PRIVATE)('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['https://8.8.8.8/cb', null],
    ['https://[2606:4700:4700::1111]/cb', null],
    ['https://hooks.example.com/svc', null],
    ['https://hooks.example.com./svc', null],
    ['https://user:secret@hooks.example.com/svc', /credentials/],
    ['https://token@hooks.example.com/svc', /credentials/],
    ['http://8.8.8.8/cb', /https/],
    ['https://localhost./cb', /local name/],
    ['https://LOCALHOST../cb', /local name/],
    ['https://api.localhost/cb', /local name/],
    ['https://printer.local/cb', /local name/],
    ['https://db.internal/cb', /local name/],
    ['https://0x7f.1/cb', /private/], // the URL parser turns odd IPv4 spellings into 127.0.0.1
    ['https://2130706433/cb', /private/],
    ['https://[::127.0.0.1]/cb', /private/],
    ['https://[::ffff:0:7f00:1]/cb', /private/],
    ['https://[64:ff9b:1::1]/cb', /private/],
    ['https://[2002:7f00:1::]/cb', /private/],
    ['https://[fec0::1]/cb', /private/],
    ['https://[fe80::1%25eth0]/cb', /./],
  ] as const)('judges the callback URL %s', (url, expected) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // Not even a URL (zone ids in URLs): refused earlier by the URL parser, which is a refusal too.
      expect(expected).not.toBeNull();
      return;
    }
    const problem = callbackUrlProblem(parsed, false);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it('lets development configurations use http and loopback, but never credentials', () => {
    expect(callbackUrlProblem(new URL('http://127.0.0.1:8080/hook'), true)).toBeNull();
    expect(callbackUrlProblem(new URL('http://u:p@127.0.0.1:8080/hook'), true)).toMatch(/credentials/);
  });
});
