import { isIP } from 'node:net';

/**
 * Which IP addresses a webhook may be delivered to. Pure functions (no DNS), so the rules can be checked by a
 * table of addresses. Anything that is not plainly a public unicast address is refused: loopback, private,
 * link-local (cloud metadata lives at 169.254.169.254), CGNAT, multicast, documentation and other reserved
 * ranges, and IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo), which are judged by the
 * IPv4 address they carry.
 */

type Range4 = [base: number, prefix: number];

const V4_BLOCKED: Range4[] = [
  [ip4('0.0.0.0'), 8], // "this network"
  [ip4('10.0.0.0'), 8], // private
  [ip4('100.64.0.0'), 10], // CGNAT
  [ip4('127.0.0.0'), 8], // loopback
  [ip4('169.254.0.0'), 16], // link-local, cloud metadata
  [ip4('172.16.0.0'), 12], // private
  [ip4('192.0.0.0'), 24], // IETF protocol assignments
  [ip4('192.0.2.0'), 24], // TEST-NET-1
  [ip4('192.88.99.0'), 24], // 6to4 relay anycast (deprecated)
  [ip4('192.168.0.0'), 16], // private
  [ip4('198.18.0.0'), 15], // benchmarking
  [ip4('198.51.100.0'), 24], // TEST-NET-2
  [ip4('203.0.113.0'), 24], // TEST-NET-3
  [ip4('224.0.0.0'), 4], // multicast
  [ip4('240.0.0.0'), 4], // reserved, and 255.255.255.255 broadcast
];

function ip4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function inRange4(addr: number, [base, prefix]: Range4): boolean {
  const size = 2 ** (32 - prefix);
  return addr >= base && addr < base + size;
}

function isPublicV4(text: string): boolean {
  const addr = ip4(text);
  return !V4_BLOCKED.some((range) => inRange4(addr, range));
}

/** The eight 16-bit groups of an IPv6 address (handles `::`, a zone id and a trailing dotted IPv4). */
export function parseV6(text: string): number[] | null {
  let input = text.toLowerCase().split('%')[0];
  const lastColon = input.lastIndexOf(':');
  const last = input.slice(lastColon + 1);
  if (last.includes('.')) {
    if (isIP(last) !== 4) return null;
    const v = ip4(last);
    input = `${input.slice(0, lastColon + 1)}${Math.floor(v / 65536).toString(16)}:${(v % 65536).toString(16)}`;
  }
  const halves = input.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) =>
    part ? part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : [];
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const explicit = head.length + rest.length;
  if ([...head, ...rest].some(Number.isNaN)) return null;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - explicit).fill(0) : [];
  return [...head, ...zeros, ...rest];
}

function v4FromGroups(hi: number, lo: number): string {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

function isPublicV6(text: string): boolean {
  const g = parseV6(text);
  if (!g) return false;
  const allZeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::, ::1, and the deprecated IPv4-compatible ::a.b.c.d
  if (allZeroUpTo(6)) return false;
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d: judged by the IPv4 address
  if (allZeroUpTo(5) && g[5] === 0xffff) return isPublicV4(v4FromGroups(g[6], g[7]));
  if (allZeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return isPublicV4(v4FromGroups(g[6], g[7]));
  // NAT64 well-known prefix 64:ff9b::/96 and local-use 64:ff9b:1::/48
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (g[2] === 1) return false;
    return g.slice(2, 6).every((x) => x === 0) && isPublicV4(v4FromGroups(g[6], g[7]));
  }
  // 6to4 2002::/16 carries an IPv4 address in groups 1-2
  if (g[0] === 0x2002) return isPublicV4(v4FromGroups(g[1], g[2]));
  // Teredo 2001::/32 and other IETF special-purpose 2001:0::/23 space, documentation 2001:db8::/32
  if (g[0] === 0x2001 && (g[1] < 0x200 || g[1] === 0xdb8)) return false;
  // discard-only 100::/64
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return false;
  // documentation 3fff::/20
  if (g[0] === 0x3fff && g[1] < 0x1000) return false;
  const first = g[0];
  if ((first & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((first & 0xffc0) === 0xfec0) return false; // site-local fec0::/10 (deprecated)
  if ((first & 0xff00) === 0xff00) return false; // multicast ff00::/8
  // Only global unicast 2000::/3 is routable on the internet; everything else is reserved.
  return (first & 0xe000) === 0x2000;
}

/** True when `address` (an IPv4 or IPv6 literal) is a public unicast address a webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  switch (isIP(bare.split('%')[0])) {
    case 4:
      return isPublicV4(bare);
    case 6:
      return isPublicV6(bare);
    default:
      return false;
  }
}

/** True when a URL host is an IP literal (with or without IPv6 brackets). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) !== 0;
}
