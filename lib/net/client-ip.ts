// The client address for per-client limits (DESIGN.md section 3): the socket peer, or, only when that peer
// is one of our TRUSTED_PROXIES, the right-most X-Forwarded-For hop that is not itself a trusted proxy.
// Everything left of that hop was written by the client and is never believed. Limits count an IPv6 client
// by its /64 (limitKey).
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

const V4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const V6_BRACKETED = /^\[([0-9A-Fa-f:.]+(?:%[\w.-]+)?)\](?::\d{1,5})?$/;

/**
 * A strict parse: four-part decimal IPv4 only (ipaddr.js alone would read "127.1" or "0x7f.0.0.1"), IPv6,
 * optionally `[v6]`, `[v6]:port` or `v4:port`. IPv4-mapped IPv6 becomes IPv4, so `::ffff:1.2.3.4` and
 * `1.2.3.4` are one client.
 */
function parseAddress(raw: string): Address | null {
  let s = raw.trim();
  const bracketed = V6_BRACKETED.exec(s);
  if (bracketed) s = bracketed[1]!;
  else {
    const withPort = V4_WITH_PORT.exec(s);
    if (withPort) s = withPort[1]!;
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return ipaddr.IPv4.parse(s);
  if (s.includes(":") && ipaddr.IPv6.isValid(s)) {
    const v6 = ipaddr.IPv6.parse(s);
    // The zone (fe80::1%eth0) names a local interface, not a different client.
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : new ipaddr.IPv6(v6.parts);
  }
  return null;
}

function format(a: Address): string {
  return a.kind() === "ipv6" ? (a as ipaddr.IPv6).toRFC5952String() : a.toString();
}

function parseRange(entry: string): Range | null {
  try {
    const [addr, bits] = entry.includes("/") ? ipaddr.parseCIDR(entry.trim()) : [ipaddr.parse(entry.trim()), -1];
    if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
      const v4 = (addr as ipaddr.IPv6).toIPv4Address();
      return [v4, bits === -1 ? 32 : Math.max(0, bits - 96)];
    }
    return [addr, bits === -1 ? (addr.kind() === "ipv4" ? 32 : 128) : bits];
  } catch {
    return null; // config validates the list; a bad entry here just trusts nothing
  }
}

// TRUSTED_PROXIES is a frozen array from the parsed config: parse each list once.
const parsedLists = new WeakMap<readonly string[], Range[]>();

function rangesOf(list: readonly string[]): Range[] {
  let ranges = parsedLists.get(list);
  if (!ranges) {
    ranges = list.map(parseRange).filter((r): r is Range => r !== null);
    parsedLists.set(list, ranges);
  }
  return ranges;
}

function isTrusted(a: Address, ranges: Range[]): boolean {
  return ranges.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));
}

/** Whether the immediate peer is one of TRUSTED_PROXIES (whose X-Forwarded-* headers are believed). */
export function fromTrustedProxy(peer: string | undefined, trustedProxies: readonly string[]): boolean {
  const peerAddr = peer ? parseAddress(peer) : null;
  return peerAddr !== null && isTrusted(peerAddr, rangesOf(trustedProxies));
}

export function clientIp(peer: string | undefined, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  const peerAddr = peer ? parseAddress(peer) : null;
  if (!peerAddr) return "unknown";
  const ranges = rangesOf(trustedProxies);
  if (!forwardedFor || !isTrusted(peerAddr, ranges)) return format(peerAddr);

  // Empty list elements (", ,") carry nothing and are skipped, as HTTP list syntax allows.
  const hops = forwardedFor.split(",").filter((h) => h.trim() !== "");
  let leftmostTrusted: Address | null = null;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]!);
    // A malformed hop breaks the chain: nothing left of it can be attributed, so the limit falls on the
    // proxy that sent it (stricter, never an escape).
    if (!hop) return format(peerAddr);
    if (!isTrusted(hop, ranges)) return format(hop);
    leftmostTrusted = hop;
  }
  return format(leftmostTrusted ?? peerAddr);
}

/** The bits of an IPv6 client address that name one subscriber: an ISP or host hands each a /64. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * What per-client limits count against, for a clientIp() answer: an IPv4 address as it is, an IPv6 address
 * as its /64 ("2001:db8:1:2::/64"). Anyone holding a /64 can use any of its 2^64 addresses, so counting
 * single IPv6 addresses would give every request a fresh count.
 */
export function limitKey(ip: string): string {
  if (!ip.includes(":") || !ipaddr.IPv6.isValid(ip)) return ip;
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${ip}/${IPV6_CLIENT_PREFIX}`);
  return `${network.toRFC5952String()}/${IPV6_CLIENT_PREFIX}`;
}
