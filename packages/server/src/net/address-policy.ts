import { isIP } from 'node:net';

/**
 * The one address policy for every outbound request (DESIGN.md sections 5 and 11): callbacks, webhooks and the site
 * reader reach only public addresses unless `SVC_ALLOW_PRIVATE_URLS=true` (or its older name
 * `SVC_ALLOW_PRIVATE_CALLBACKS`). Names are judged again at connect time by `policyLookup` (connect.ts).
 *
 * Every public address of both families is allowed; private, loopback, link-local, CGNAT, multicast, reserved,
 * documentation and benchmarking ranges are refused, and so are IPv6 forms that carry such an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo). Addresses are compared as numbers, not with `net.BlockList`: a BlockList
 * holding `::ffff:0:0/96` matches every IPv4 address checked as `ipv4`, which once refused all of them.
 */

type V4Range = readonly [base: string, prefix: number];

/** IANA IPv4 special-purpose registry entries that are not globally reachable, plus multicast and class E. */
const V4_REFUSED: readonly V4Range[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT shared space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1 (documentation)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

function parseV4(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

const V4_REFUSED_NUMERIC = V4_REFUSED.map(([base, prefix]) => {
  const size = 2 ** (32 - prefix);
  return { start: parseV4(base)!, size };
});

function isPublicV4Number(value: number): boolean {
  return !V4_REFUSED_NUMERIC.some(({ start, size }) => value >= start && value < start + size);
}

/** The 16 bytes of an IPv6 address as eight 16-bit groups, or null when it is not one. */
function parseV6(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  // A dotted IPv4 tail ("::ffff:1.2.3.4", "64:ff9b::8.8.8.8") becomes its two hex groups.
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const v4 = parseV4(dotted);
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const groups: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      groups.push(parseInt(g, 16));
    }
    return groups;
  };
  const head = toGroups(halves[0]!);
  const rest = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (!head || !rest) return null;
  const explicit = head.length + rest.length;
  if (halves.length === 1) return explicit === 8 ? head : null;
  if (explicit > 7) return null;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest];
}

const v4Of = (high: number, low: number): number => high * 65536 + low;

function isPublicV6Groups(g: number[]): boolean {
  // IPv4-mapped ::ffff:a.b.c.d: Node connects to the IPv4 address itself.
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) return isPublicV4Number(v4Of(g[6]!, g[7]!));
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address through the operator's translator.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) {
    return isPublicV4Number(v4Of(g[6]!, g[7]!));
  }
  // Outside global unicast 2000::/3 nothing is public today: ::/8 (unspecified, loopback, IPv4-compatible,
  // IPv4-translated), 64:ff9b:1::/48 local NAT64, 100::/64 discard, ULA fc00::/7, site-local fec0::/10,
  // link-local fe80::/10, multicast ff00::/8.
  if ((g[0]! & 0xe000) !== 0x2000) return false;
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation 2001:db8::/32
  if (g[0] === 0x3fff && g[1]! < 0x1000) return false; // documentation 3fff::/20
  if (g[0] === 0x2001 && g[1] === 0) {
    // Teredo 2001::/32: the server's IPv4 address in bits 32-63, the client's inverted in the last 32 bits.
    return isPublicV4Number(v4Of(g[2]!, g[3]!)) && isPublicV4Number(v4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff));
  }
  if (g[0] === 0x2001 && g[1]! < 0x200) return false; // the rest of 2001::/23, IETF protocol assignments (benchmarking, ORCHID…)
  if (g[0] === 0x2002) return isPublicV4Number(v4Of(g[1]!, g[2]!)); // 6to4 2002::/16 embeds an IPv4 address
  return true;
}

/** True when an outbound request may connect to `address` (an IPv4 or IPv6 literal) under the default policy. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    const value = parseV4(address);
    return value !== null && isPublicV4Number(value);
  }
  if (family === 6) {
    const groups = parseV6(address);
    return groups !== null && isPublicV6Groups(groups);
  }
  return false;
}

/** Anything that is not a public IP address literal (names too) counts as private here. */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Names that are loopback or local by definition, whatever DNS says (RFC 6761, RFC 6762, ICANN `.internal`). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$/;

/** A URL host as compared: brackets of IPv6 literals removed, lower case, trailing dots dropped (`localhost.`). */
export function normaliseHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
}

/** Why a host (as in a URL) is refused under the default policy, or null; names are checked again when resolved. */
function hostProblem(hostname: string): string | null {
  const host = normaliseHost(hostname);
  if (host === '') return 'has no host';
  if (isIP(host) !== 0) {
    return isPublicAddress(host) ? null : `must not point to a private, loopback, link-local or reserved address (${host})`;
  }
  if (LOCAL_NAME.test(host)) return `must not point to a local name (${host})`;
  return null;
}

/**
 * Why a callback URL is refused under the default policy, or null when it may be used. Names are resolved and
 * checked again at every connection (DNS can change between saving the URL and delivering to it).
 */
export function callbackUrlProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.username !== '' || url.password !== '') {
    return 'callback URL must not contain credentials (they would be shown in key and delivery listings); authenticate the delivery by its signature instead';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return 'callback URL must use https (http is allowed only with SVC_ALLOW_PRIVATE_URLS=true)';
  }
  if (allowPrivate) return null;
  const problem = hostProblem(url.hostname);
  return problem === null ? null : `callback URL ${problem}`;
}

/**
 * Why the site reader may not fetch a web address (a page, a redirect hop, robots.txt), or null. Plain http is
 * allowed (many public sites still serve it); credentials in the URL are not.
 */
export function webUrlProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `only http and https addresses are read (${url.protocol})`;
  if (url.username !== '' || url.password !== '') return 'the address must not contain credentials';
  if (allowPrivate) return null;
  const problem = hostProblem(url.hostname);
  return problem === null ? null : `the address ${problem} (SVC_ALLOW_PRIVATE_URLS=true allows it)`;
}
