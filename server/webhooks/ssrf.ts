// The SSRF guard for webhook targets (the document's `url-not-allowed`). A webhook URL is checked when it is saved and
// again on every delivery, on the address the connection actually uses, so a name that is
// re-pointed at an internal address after it was saved (DNS rebinding) is still refused.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Mode } from '../config.ts';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'unique-local'
  | 'unspecified'
  | 'reserved';

// Checked in order: the metadata addresses sit inside the link-local and unique-local ranges.
const RANGES: readonly [AddressClass, readonly [string, number, 'ipv4' | 'ipv6'][]][] = [
  [
    'metadata',
    [
      ['169.254.169.254', 32, 'ipv4'],
      ['fd00:ec2::254', 128, 'ipv6'],
      ['100.100.100.200', 32, 'ipv4'],
    ],
  ],
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'unspecified',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
    ],
  ],
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  ['cgnat', [['100.64.0.0', 10, 'ipv4']]],
  [
    'unique-local',
    [
      ['fc00::', 7, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ],
  ],
  [
    'reserved',
    [
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['100::', 64, 'ipv6'],
      // NAT64 and 6to4 embed an IPv4 address that could be an internal one.
      ['64:ff9b::', 96, 'ipv6'],
      ['64:ff9b:1::', 48, 'ipv6'],
      ['2002::', 16, 'ipv6'],
    ],
  ],
];

const LISTS = RANGES.map(([kind, subnets]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return [kind, list] as const;
});

/** What kind of address an IP literal is. IPv4-mapped IPv6 addresses count as their IPv4 address. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`not an IP address: ${address}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(address, type)) return kind;
  return 'public';
}

const DESCRIPTIONS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT address (100.64.0.0/10)',
  metadata: 'a cloud metadata address',
  'unique-local': 'a unique-local IPv6 address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved or special-purpose address',
};

/** Why a connection to `address` is refused in `mode`, or null when it is allowed. */
export function addressRefusal(address: string, mode: Mode): string | null {
  const kind = classifyAddress(address);
  if (kind === 'public' || (kind === 'loopback' && mode === 'development')) return null;
  return `${address} is ${DESCRIPTIONS[kind]}`;
}

/** Why the URL itself (scheme, literal host) is refused in `mode`, or null. No DNS involved. */
export function urlRefusal(url: string, mode: Mode): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the URL is not a valid absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'the URL must use http or https';
  if (mode === 'production' && parsed.protocol !== 'https:') return 'the URL must use https in production';
  if (parsed.username !== '' || parsed.password !== '') return 'the URL must not contain credentials';
  const host = hostOf(parsed);
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, mode);
    return refusal && `the URL's host ${refusal}`;
  }
  return null;
}

/** The host of a URL without IPv6 brackets, as net.connect and dns.lookup want it. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/**
 * The system resolver, except for names under `.invalid`, which never resolve (RFC 6761 §6.4: name
 * resolution APIs should answer them negatively at once). Asking the network anyway is not free:
 * each lookup holds one of libuv's four lookup threads until the DNS server says no, which on a
 * slow server took up to 5 s, so a burst of failing deliveries to such a name (the contract kit's
 * webhooks when events are skipped) delayed every other lookup, webhook saves included.
 */
export const systemResolver: Resolver = (hostname) =>
  /(^|\.)invalid\.?$/i.test(hostname)
    ? Promise.reject(Object.assign(new Error(`${hostname} never resolves (RFC 6761: .invalid)`), { code: 'ENOTFOUND' }))
    : new Promise((resolve, reject) =>
        dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
      );

export interface SaveCheckOptions {
  mode: Mode;
  resolve?: Resolver;
  /** A slow resolver must not hold a request; past this the name is judged at delivery time. */
  timeoutMs?: number;
}

/**
 * The check a webhook create or update runs: the URL's scheme and host, and every address its
 * name resolves to now. A name that does not resolve (yet) is accepted; the delivery-time check
 * decides then. Resolves to the reason for a refusal, or undefined when the URL is allowed.
 */
export async function checkWebhookUrl(
  url: string,
  { mode, resolve = systemResolver, timeoutMs = 2000 }: SaveCheckOptions,
): Promise<string | undefined> {
  const refusal = urlRefusal(url, mode);
  if (refusal) return refusal;
  const host = hostOf(new URL(url));
  if (isIP(host) !== 0) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await withTimeout(resolve(host), timeoutMs);
  } catch {
    return undefined;
  }
  for (const { address } of addresses) {
    const blocked = addressRefusal(address, mode);
    if (blocked) return `the URL's host ${host} resolves to ${blocked}`;
  }
  return undefined;
}

/**
 * A `lookup` for net.connect (undici's `connect.lookup`) that resolves with `resolve` and fails the
 * connection with an SsrfError when any address is refused, so the check applies to the very
 * address the socket connects to.
 */
export function guardedLookup(mode: Mode, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter((entry) => !options.family || entry.family === options.family);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        for (const { address } of usable) {
          const refusal = addressRefusal(address, mode);
          if (refusal) {
            callback(new SsrfError(`${hostname} resolves to ${refusal}`), '', 0);
            return;
          }
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export class SsrfError extends Error {
  override name = 'SsrfError';
  readonly code = 'ERR_SSRF_BLOCKED';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
