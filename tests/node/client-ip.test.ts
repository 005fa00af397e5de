import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientIp, limitKey } from "../../lib/net/client-ip.ts";

const TRUSTED = Object.freeze(["172.28.0.0/24"]);
const CHAIN = Object.freeze(["172.28.0.0/24", "10.0.0.0/8", "2001:db8:ffff::/48"]);

describe("clientIp: untrusted peers", () => {
  it("is the socket address, whatever X-Forwarded-For says", () => {
    expect(clientIp("203.0.113.7", undefined, TRUSTED)).toBe("203.0.113.7");
    expect(clientIp("203.0.113.7", "198.51.100.1", TRUSTED)).toBe("203.0.113.7");
    expect(clientIp("203.0.113.7", "198.51.100.1, 172.28.0.5", TRUSTED)).toBe("203.0.113.7");
  });

  it("cannot escape a limit by rotating X-Forwarded-For", () => {
    const seen = new Set(Array.from({ length: 20 }, (_, i) => clientIp("203.0.113.7", `198.51.100.${i}`, TRUSTED)));
    expect([...seen]).toEqual(["203.0.113.7"]);
  });

  it("trusts nothing when TRUSTED_PROXIES is empty", () => {
    expect(clientIp("172.28.0.5", "198.51.100.1", [])).toBe("172.28.0.5");
  });

  it("answers unknown without a usable peer", () => {
    expect(clientIp(undefined, "198.51.100.1", TRUSTED)).toBe("unknown");
    expect(clientIp("", "198.51.100.1", TRUSTED)).toBe("unknown");
    expect(clientIp("not-an-ip", "198.51.100.1", TRUSTED)).toBe("unknown");
  });
});

describe("clientIp: behind trusted proxies", () => {
  it("takes the right-most hop that is not a trusted proxy", () => {
    expect(clientIp("172.28.0.5", "198.51.100.1", TRUSTED)).toBe("198.51.100.1");
    // The client wrote the left part itself; only what our proxy appended counts.
    expect(clientIp("172.28.0.5", "1.1.1.1, 198.51.100.1", TRUSTED)).toBe("198.51.100.1");
    expect(clientIp("172.28.0.5", "1.1.1.1,198.51.100.1", TRUSTED)).toBe("198.51.100.1");
  });

  it("walks through a chain of trusted proxies", () => {
    expect(clientIp("172.28.0.5", "9.9.9.9, 198.51.100.1, 10.1.2.3, 172.28.0.9", CHAIN)).toBe("198.51.100.1");
    expect(clientIp("172.28.0.5", "198.51.100.1, 2001:db8:ffff::1", CHAIN)).toBe("198.51.100.1");
  });

  it("uses the left-most hop when every hop is trusted", () => {
    expect(clientIp("172.28.0.5", "10.0.0.1, 172.28.0.9", CHAIN)).toBe("10.0.0.1");
  });

  it("uses the peer when X-Forwarded-For is absent or empty", () => {
    expect(clientIp("172.28.0.5", undefined, TRUSTED)).toBe("172.28.0.5");
    expect(clientIp("172.28.0.5", "", TRUSTED)).toBe("172.28.0.5");
    expect(clientIp("172.28.0.5", " , ", TRUSTED)).toBe("172.28.0.5");
  });

  it("matches a single trusted address as well as a range", () => {
    expect(clientIp("192.0.2.10", "198.51.100.1", ["192.0.2.10"])).toBe("198.51.100.1");
    expect(clientIp("192.0.2.11", "198.51.100.1", ["192.0.2.10"])).toBe("192.0.2.11");
  });

  it("stays inside the range boundary", () => {
    expect(clientIp("172.28.0.255", "198.51.100.1", TRUSTED)).toBe("198.51.100.1");
    expect(clientIp("172.28.1.0", "198.51.100.1", TRUSTED)).toBe("172.28.1.0");
  });
});

describe("clientIp: IPv6 and IPv4-mapped addresses", () => {
  it("matches an IPv4-mapped peer against an IPv4 range and reports plain IPv4", () => {
    expect(clientIp("::ffff:172.28.0.5", "198.51.100.1", TRUSTED)).toBe("198.51.100.1");
    expect(clientIp("::ffff:203.0.113.7", "198.51.100.1", TRUSTED)).toBe("203.0.113.7");
    expect(clientIp("172.28.0.5", "::ffff:198.51.100.1", TRUSTED)).toBe("198.51.100.1");
  });

  it("matches an IPv4-mapped range against IPv4 addresses", () => {
    expect(clientIp("172.28.0.5", "198.51.100.1", ["::ffff:172.28.0.0/120"])).toBe("198.51.100.1");
  });

  it("handles IPv6 peers, ranges and hops, in one canonical form", () => {
    const v6 = ["fd00:28::/64"];
    expect(clientIp("fd00:28::5", "2001:DB8:0:0:0:0:0:1", v6)).toBe("2001:db8::1");
    expect(clientIp("fd00:29::5", "2001:db8::1", v6)).toBe("fd00:29::5");
    expect(clientIp("fd00:28::5", "[2001:db8::2]:443", v6)).toBe("2001:db8::2");
    expect(clientIp("fe80::1%eth0", undefined, v6)).toBe("fe80::1");
  });

  it("never matches an IPv4 address against an IPv6 range or the reverse", () => {
    expect(clientIp("172.28.0.5", "198.51.100.1", ["::/0"])).toBe("172.28.0.5");
    expect(clientIp("fd00::1", "198.51.100.1", ["0.0.0.0/0"])).toBe("fd00::1");
  });

  it("reads a hop with a port", () => {
    expect(clientIp("172.28.0.5", "198.51.100.1:52311", TRUSTED)).toBe("198.51.100.1");
  });
});

describe("clientIp: malformed X-Forwarded-For", () => {
  it("falls back to the peer when the hop it would use is garbage", () => {
    for (const xff of ["garbage", "unknown", "198.51.100.1, not-an-ip", "1.2.3", "256.1.1.1", "127.1", "0x7f.0.0.1", "010.0.0.1", "1.2.3.4/8", "::1::2", "<script>", "1.2.3.4 5.6.7.8"]) {
      expect(clientIp("172.28.0.5", xff, TRUSTED), xff).toBe("172.28.0.5");
    }
  });

  it("ignores garbage left of the hop it uses", () => {
    expect(clientIp("172.28.0.5", "garbage, ::zz, 198.51.100.1", TRUSTED)).toBe("198.51.100.1");
  });

  it("never throws and always answers an address or unknown", () => {
    const peers = fc.option(fc.oneof(fc.constant("172.28.0.5"), fc.constant("::ffff:172.28.0.7"), fc.ipV4(), fc.ipV6(), fc.string()), { nil: undefined });
    const headers = fc.oneof(fc.string({ maxLength: 200 }), fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 8 }))).map((h) => h.join(",")));
    fc.assert(
      fc.property(peers, headers, (peer, xff) => {
        const got = clientIp(peer, xff, TRUSTED);
        const ok = got === "unknown" || /^[0-9a-f:.]+$/.test(got);
        expect(ok, got).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("lets nothing the client writes left of our proxy's hop change the answer", () => {
    const untrustedV4 = fc.ipV4().filter((ip) => !ip.startsWith("172.28.0."));
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 12 })), { maxLength: 6 }), untrustedV4, (prefix, hop) => {
        expect(clientIp("172.28.0.5", [...prefix, hop].join(", "), TRUSTED)).toBe(hop);
        expect(clientIp("203.0.113.7", [...prefix, hop].join(", "), TRUSTED)).toBe("203.0.113.7");
      }),
      { numRuns: 500 },
    );
  });
});

describe("limitKey", () => {
  it("counts an IPv4 client by its address", () => {
    expect(limitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKey(clientIp("::ffff:203.0.113.7", undefined, TRUSTED))).toBe("203.0.113.7");
    expect(limitKey("unknown")).toBe("unknown");
  });

  it("counts an IPv6 client by its /64", () => {
    expect(limitKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(limitKey("::1")).toBe("::/64");
  });

  it("gives every address of a /64 one key, and addresses in different /64s different keys", () => {
    const group = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(group, group, group, (net, hostA, hostB) => {
        const address = (parts: number[]) => parts.map((p) => p.toString(16)).join(":");
        const a = clientIp(address([...net, ...hostA]), undefined, TRUSTED);
        const b = clientIp(address([...net, ...hostB]), undefined, TRUSTED);
        expect(limitKey(a)).toBe(limitKey(b));
        const other = [...net.slice(0, 3), (net[3]! + 1) % 0x10000];
        expect(limitKey(clientIp(address([...other, ...hostA]), undefined, TRUSTED))).not.toBe(limitKey(a));
      }),
      { numRuns: 300 },
    );
  });
});
