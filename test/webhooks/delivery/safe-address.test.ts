import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress } from '../../../src/webhooks/delivery/safe-address.js';

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.255.1.2', 'this network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['100.100.100.200', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.170.2', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.1', 'IETF'],
    ['192.0.0.170', 'IETF'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses IPv4 %s (%s)', (address, kind) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.public === false && verdict.kind).toContain(kind);
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped cloud metadata'],
    ['::ffff:0.0.0.0', 'IPv4-mapped'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 cloud metadata'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['100::1', 'discard'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2002:c0a8:101::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['3fff::1', 'documentation'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['4000::1', 'reserved'],
    ['1::1', 'reserved'],
  ])('refuses IPv6 %s (%s)', (address, kind) => {
    const verdict = classifyAddress(address);
    expect(verdict.public).toBe(false);
    expect(verdict.public === false && verdict.kind).toContain(kind);
  });

  it.each([
    ['1.1.1.1', 4],
    ['8.8.8.8', 4],
    ['9.255.255.255', 4],
    ['11.0.0.0', 4],
    ['100.63.255.255', 4],
    ['100.128.0.0', 4],
    ['126.255.255.255', 4],
    ['128.0.0.1', 4],
    ['169.253.255.255', 4],
    ['172.15.255.255', 4],
    ['172.32.0.0', 4],
    ['192.0.1.1', 4],
    ['192.167.255.255', 4],
    ['192.169.0.0', 4],
    ['198.17.255.255', 4],
    ['198.20.0.0', 4],
    ['223.255.255.255', 4],
    ['2606:4700:4700::1111', 6],
    ['2a00:1450:4001:80b::200e', 6],
    ['2001:200::1', 6],
    ['2001:4860:4860::8888', 6],
    ['::ffff:8.8.8.8', 6],
    ['::ffff:808:808', 6],
    ['64:ff9b::808:808', 6],
  ])('accepts public %s', (address, family) => {
    expect(classifyAddress(address)).toEqual({ public: true, family });
  });

  it.each(['', 'localhost', 'example.com', '1.2.3', '256.1.1.1', '::g', '1.2.3.4.5', '[1.2.3.4]'])('treats %j, which is not an IP address, as not public', (input) => {
    expect(classifyAddress(input)).toMatchObject({ public: false, family: null });
    expect(isPublicAddress(input)).toBe(false);
  });
});
