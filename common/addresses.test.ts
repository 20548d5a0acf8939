// Address ranges: what a resolved address is, including the IPv6 spellings that carry an IPv4 address
// a connection ends up at (each is the bypass of a check that looked only at the plain forms).
import { describe, expect, it } from 'vitest';
import { addressRange, canonicalAddress, isHostLocalAddress } from './addresses';

describe('which range an address belongs to', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    // The IPv6 forms of an IPv4 address are judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::c0a8:101', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['::127.0.0.1', 'reserved'],
    ['not-an-address', 'reserved'],
  ])('%s is %s', (ip, range) => {
    expect(addressRange(ip)?.range).toEqual(range);
  });

  it.each([
    ['8.8.8.8'],
    ['93.184.215.14'],
    ['100.63.255.255'],
    ['100.128.0.0'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['169.253.255.255'],
    ['2606:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'],
    ['2002:808:808::1'],
  ])('%s is an ordinary address of the internet', (ip) => {
    expect(addressRange(ip)).toEqual(null);
  });

  it.each([
    ['127.0.0.1', true],
    ['169.254.169.254', true],
    ['fd00:ec2::254', true],
    ['::', true],
    ['10.0.0.1', false],
    ['8.8.8.8', false],
  ])('%s is one a card may never offer to open (this computer, its link, metadata): %s', (ip, local) => {
    expect(isHostLocalAddress(ip)).toEqual(local);
  });
});

describe('one spelling per address', () => {
  it.each([
    ['127.0.0.1', { family: 4, address: '127.0.0.1' }],
    ['::1', { family: 6, address: '::1' }],
    ['[::1]', { family: 6, address: '::1' }],
    ['0:0:0:0:0:0:0:1', { family: 6, address: '::1' }],
    ['0000:0000::0001', { family: 6, address: '::1' }],
    ['::FFFF:127.0.0.1', { family: 6, address: '::ffff:7f00:1' }],
    ['2001:DB8:0:0:1:0:0:1', { family: 6, address: '2001:db8::1:0:0:1' }],
    ['fe80:0:0:0:0:0:0:0', { family: 6, address: 'fe80::' }],
    ['1:0:0:2:0:0:0:3', { family: 6, address: '1:0:0:2::3' }],
    ['1:0:1:0:1:0:1:0', { family: 6, address: '1:0:1:0:1:0:1:0' }],
    // Spellings that resolvers read as an address but that are not the standard one: refused, never guessed.
    ['127.1', null],
    ['0x7f.0.0.1', null],
    ['0177.0.0.1', null],
    ['2130706433', null],
    ['127.0.0.256', null],
    ['127.0.0.01', null],
    ['fe80::1%eth0', null],
    ['1::2::3', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['12345::1', null],
    ['::1.2.3', null],
    [':1', null],
    ['1:', null],
  ])('%s is written %j', (text, expected) => {
    expect(canonicalAddress(text)).toEqual(expected);
  });
});
