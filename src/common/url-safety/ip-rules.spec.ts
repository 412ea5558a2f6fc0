import { isIpLiteral, isPublicAddress, parseV6 } from './ip-rules';

describe('webhook SSRF IP rules', () => {
  const refused: Array<[string, string]> = [
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private 10/8'],
    ['100.64.0.1', 'CGNAT low'],
    ['100.127.255.254', 'CGNAT high'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback high'],
    ['169.254.169.254', 'cloud metadata (link-local)'],
    ['172.16.0.1', 'private 172.16/12 low'],
    ['172.31.255.255', 'private 172.16/12 high'],
    ['192.0.0.8', 'IETF assignments'],
    ['192.0.2.10', 'TEST-NET-1'],
    ['192.168.1.1', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast SSDP'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified v6'],
    ['::1', 'loopback v6'],
    ['[::1]', 'bracketed loopback v6'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated private'],
    ['::10.0.0.1', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
    ['64:ff9b:1::1', 'NAT64 local use'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:c0a8:101::1', '6to4 of private'],
    ['2001:0::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['100::1', 'discard-only'],
    ['fc00::1', 'unique local fc00'],
    ['fd12:3456::1', 'unique local fd'],
    ['fe80::1', 'link-local v6'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['fec0::1', 'site-local v6'],
    ['ff02::1', 'multicast v6'],
    ['fd00:ec2::254', 'AWS IMDS v6 (unique local)'],
    ['4000::1', 'outside 2000::/3'],
    ['not-an-ip', 'not an address'],
    ['1.2.3', 'short IPv4'],
  ];
  const allowed: Array<[string, string]> = [
    ['8.8.8.8', 'public v4'],
    ['1.1.1.1', 'public v4'],
    ['100.63.255.255', 'just below CGNAT'],
    ['100.128.0.0', 'just above CGNAT'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.0', 'just above 172.16/12'],
    ['169.253.255.255', 'just below link-local'],
    ['192.169.0.1', 'just above 192.168/16'],
    ['223.255.255.255', 'just below multicast'],
    ['2606:4700:4700::1111', 'public v6'],
    ['2a00:1450:4001::200e', 'public v6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['64:ff9b::808:808', 'NAT64 of public'],
    ['2002:808:808::1', '6to4 of public'],
  ];

  it.each(refused)('refuses %s (%s)', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(allowed)('allows %s (%s)', (address) => expect(isPublicAddress(address)).toBe(true));

  it('parses compressed and dotted IPv6 forms', () => {
    expect(parseV6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseV6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseV6('1::2::3')).toBeNull();
    expect(parseV6('12345::')).toBeNull();
  });

  it('recognises IP literals in URL hosts', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
  });
});
