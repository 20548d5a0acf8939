// IP addresses as Threshold reads them: strict parsing (one spelling per address, so an address is
// compared in the form it is dialled), one canonical text form, and which special-purpose range an
// address belongs to. The ranges follow IANA's IPv4 and IPv6 Special-Purpose Address Registries, plus
// the cloud metadata services, which sit at fixed addresses. Pure: no Node built-ins.

/** Where an address leads, when it is not an ordinary address of the internet. */
export type AddressRange = 'loopback' | 'unspecified' | 'link-local' | 'metadata' | 'private' | 'shared' | 'multicast' | 'reserved';

export interface RangeVerdict {
  range: AddressRange;
  /** A few words for the sentence a refusal carries: "a loopback address (this computer)". */
  description: string;
}

/** Four bytes of a dotted-quad IPv4 address: four decimal parts 0-255, no leading zeros, nothing else. */
export function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

/** Eight 16-bit words of an IPv6 address (`::` once at most, an IPv4 tail allowed); no zone index. */
export function parseIPv6(text: string): number[] | null {
  let s = text;
  let tail: number[] | null = null;
  const lastColon = s.lastIndexOf(':');
  if (lastColon === -1) return null;
  if (s.includes('.', lastColon)) {
    tail = parseIPv4(s.slice(lastColon + 1));
    if (!tail) return null;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const words = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => (/^[0-9a-fA-F]{1,4}$/.test(h) ? parseInt(h, 16) : NaN)));
  const gap = s.indexOf('::');
  let all: number[];
  if (gap === -1) {
    all = words(s);
    if (all.length !== 8) return null;
  } else {
    if (s.indexOf('::', gap + 1) !== -1) return null;
    const head = words(s.slice(0, gap));
    const rest = words(s.slice(gap + 2));
    if (head.length + rest.length > 7) return null;
    all = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  }
  if (all.some((w) => Number.isNaN(w))) return null;
  if (tail) {
    all[6] = (tail[0]! << 8) | tail[1]!;
    all[7] = (tail[2]! << 8) | tail[3]!;
  }
  return all;
}

/** RFC 5952 text: lower-case hex, no leading zeros, the longest run of two or more zero words as `::`. */
export function formatIPv6(words: readonly number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: readonly number[]) => ws.map((w) => w.toString(16)).join(':');
  if (best === -1) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

/** The one text form of an IP literal (IPv6 without brackets), or null when `s` is not one. */
export function canonicalAddress(s: string): { family: 4 | 6; address: string } | null {
  const v4 = parseIPv4(s);
  if (v4) return { family: 4, address: v4.join('.') };
  const inner = s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s;
  const v6 = parseIPv6(inner);
  return v6 ? { family: 6, address: formatIPv6(v6) } : null;
}

type Block = { bits: number; prefix: number[]; range: AddressRange; description: string };

const v4 = (cidr: string, range: AddressRange, description: string): Block => {
  const [a, bits] = cidr.split('/');
  return { bits: Number(bits), prefix: parseIPv4(a!)!, range, description };
};
const v6 = (cidr: string, range: AddressRange, description: string): Block => {
  const [a, bits] = cidr.split('/');
  return { bits: Number(bits), prefix: toBytes6(parseIPv6(a!)!), range, description };
};

const LOOPBACK = 'a loopback address (this computer)';
const PRIVATE = 'a private network address';
const RESERVED = 'a reserved or special-purpose address';

// Most specific first: the metadata services are checked before the ranges that hold them.
const METADATA: Block[] = [
  v4('169.254.169.254/32', 'metadata', 'a cloud metadata service address (AWS, Google Cloud, Azure, Oracle, DigitalOcean)'),
  v4('169.254.169.253/32', 'metadata', "a cloud provider's internal service address (AWS DNS)"),
  v4('169.254.170.2/32', 'metadata', 'a cloud metadata service address (AWS ECS task metadata)'),
  v4('169.254.0.23/32', 'metadata', 'a cloud metadata service address (Tencent Cloud)'),
  v4('100.100.100.200/32', 'metadata', 'a cloud metadata service address (Alibaba Cloud)'),
  v4('168.63.129.16/32', 'metadata', "a cloud provider's host service address (Azure WireServer)"),
  v4('192.0.0.192/32', 'metadata', 'a cloud metadata service address (Oracle Cloud, older images)'),
  v6('fd00:ec2::254/128', 'metadata', 'a cloud metadata service address (AWS, IPv6)'),
  v6('fd00:ec2::253/128', 'metadata', "a cloud provider's internal service address (AWS DNS, IPv6)"),
];

const V4_BLOCKS: Block[] = [
  v4('0.0.0.0/8', 'unspecified', 'an unspecified "this network" address (this computer)'),
  v4('10.0.0.0/8', 'private', PRIVATE),
  v4('100.64.0.0/10', 'shared', 'a carrier-grade NAT (shared) address'),
  v4('127.0.0.0/8', 'loopback', LOOPBACK),
  v4('169.254.0.0/16', 'link-local', 'a link-local address (this network link)'),
  v4('172.16.0.0/12', 'private', PRIVATE),
  v4('192.0.0.0/24', 'reserved', RESERVED),
  v4('192.0.2.0/24', 'reserved', 'a documentation address'),
  v4('192.31.196.0/24', 'reserved', RESERVED),
  v4('192.52.193.0/24', 'reserved', RESERVED),
  v4('192.88.99.0/24', 'reserved', RESERVED),
  v4('192.168.0.0/16', 'private', PRIVATE),
  v4('192.175.48.0/24', 'reserved', RESERVED),
  v4('198.18.0.0/15', 'reserved', 'a benchmarking address'),
  v4('198.51.100.0/24', 'reserved', 'a documentation address'),
  v4('203.0.113.0/24', 'reserved', 'a documentation address'),
  v4('224.0.0.0/4', 'multicast', 'a multicast address'),
  v4('240.0.0.0/4', 'reserved', 'a reserved or broadcast address'),
];

const V6_BLOCKS: Block[] = [
  v6('::/128', 'unspecified', 'the unspecified address (this computer)'),
  v6('::1/128', 'loopback', LOOPBACK),
  v6('::/96', 'reserved', 'an IPv4-compatible address (deprecated)'),
  v6('64:ff9b:1::/48', 'reserved', 'a local-use NAT64 address'),
  v6('100::/64', 'reserved', 'a discard-only address'),
  v6('2001::/32', 'reserved', 'a Teredo tunnel address'),
  v6('2001:2::/48', 'reserved', 'a benchmarking address'),
  v6('2001:10::/28', 'reserved', RESERVED),
  v6('2001:20::/28', 'reserved', RESERVED),
  v6('2001:db8::/32', 'reserved', 'a documentation address'),
  v6('3fff::/20', 'reserved', 'a documentation address'),
  v6('5f00::/16', 'reserved', RESERVED),
  v6('fc00::/7', 'private', 'a unique-local (private network) address'),
  v6('fe80::/10', 'link-local', 'a link-local address (this network link)'),
  v6('fec0::/10', 'private', 'a site-local (private network) address'),
  v6('ff00::/8', 'multicast', 'a multicast address'),
];

/** IPv6 forms that carry an IPv4 address a connection ends up at: judged by that address. */
const EMBEDDING: { block: Block; at: number; name: string }[] = [
  { block: v6('::ffff:0:0/96', 'reserved', ''), at: 12, name: 'an IPv4-mapped form of' },
  { block: v6('::ffff:0:0:0/96', 'reserved', ''), at: 12, name: 'an IPv4-translated form of' },
  { block: v6('64:ff9b::/96', 'reserved', ''), at: 12, name: 'a NAT64 form of' },
  { block: v6('2002::/16', 'reserved', ''), at: 2, name: 'a 6to4 form of' },
];

function toBytes6(words: readonly number[]): number[] {
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function inBlock(bytes: readonly number[], b: Block): boolean {
  if (bytes.length !== b.prefix.length) return false;
  for (let bit = 0; bit < b.bits; bit += 8) {
    const left = b.bits - bit;
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff;
    const i = bit / 8;
    if ((bytes[i]! & mask) !== (b.prefix[i]! & mask)) return false;
  }
  return true;
}

function classifyBytes(bytes: readonly number[]): RangeVerdict | null {
  for (const b of METADATA) if (inBlock(bytes, b)) return { range: b.range, description: b.description };
  if (bytes.length === 16) {
    for (const e of EMBEDDING) {
      if (!inBlock(bytes, e.block)) continue;
      const inner = bytes.slice(e.at, e.at + 4);
      const verdict = classifyBytes(inner);
      // A public IPv4 address reached through NAT64 or 6to4 is still a public address.
      return verdict ? { range: verdict.range, description: `${e.name} ${inner.join('.')}, ${verdict.description}` } : null;
    }
  }
  for (const b of bytes.length === 4 ? V4_BLOCKS : V6_BLOCKS) if (inBlock(bytes, b)) return { range: b.range, description: b.description };
  return null;
}

/**
 * The special-purpose range an IP address belongs to, or null for an ordinary address of the internet.
 * Anything that is not an IP literal is treated as reserved: what cannot be read is never public.
 */
export function addressRange(ip: string): RangeVerdict | null {
  const a = parseIPv4(ip);
  if (a) return classifyBytes(a);
  const w = parseIPv6(ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip);
  if (w) return classifyBytes(toBytes6(w));
  return { range: 'reserved', description: 'not an IP address' };
}

/** Addresses that reach this computer's or its link's own services: what no card may ever offer to open. */
export function isHostLocalAddress(ip: string): boolean {
  const r = addressRange(ip);
  return r !== null && (r.range === 'loopback' || r.range === 'unspecified' || r.range === 'link-local' || r.range === 'metadata');
}
