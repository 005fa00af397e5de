// Load shedding (issue 61; lib/http/shed.ts, docs/operations.md "Under load"): past MAX_CONCURRENT_REQUESTS and
// MAX_QUEUED_REQUESTS a request is answered 503 busy at once, with Retry-After, instead of waiting to time out;
// a waiting request gets its turn in order, or 503 after QUEUE_TIMEOUT_MS; GET /api/health is never held.
import { describe, expect, it } from "vitest";
import { shedLoad } from "../../lib/http/shed.ts";
import { startTestServerBehindProxy } from "../support/node-server.ts";

/** A handler that answers when told: `open(i)` lets the i-th request through. */
function gate() {
  const opens: Array<() => void> = [];
  const seen: string[] = [];
  const fetch = async (request: Request) => {
    seen.push(new URL(request.url).pathname);
    await new Promise<void>((resolve) => opens.push(resolve));
    return new Response("ok");
  };
  return { fetch, seen, open: (i: number) => opens[i]!(), waitFor: async (n: number) => { while (opens.length < n) await new Promise((r) => setTimeout(r, 5)); } };
}

const req = (path: string) => new Request(`http://test${path}`);

describe("shedding load", () => {
  it("holds at most `concurrent`, queues `queued` in order, answers the rest 503 busy at once with Retry-After", async () => {
    const g = gate();
    const reasons: string[] = [];
    const fetch = shedLoad(g.fetch, { concurrent: 2, queued: 1, waitMs: 10_000, onShed: (r) => reasons.push(r) });
    const a = fetch(req("/a"));
    const b = fetch(req("/b"));
    const c = fetch(req("/c")); // waits
    await g.waitFor(2);
    const started = performance.now();
    const d = await fetch(req("/d")); // the queue is full
    expect(performance.now() - started).toBeLessThan(50);
    expect(d.status).toBe(503);
    expect(d.headers.get("Retry-After")).toBe("1");
    expect(await d.json()).toEqual({ error: { code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("busy"), requestId: expect.any(String) } });
    expect(reasons).toEqual(["queue full"]);
    // Health is never held.
    const health = fetch(req("/api/health"));
    await g.waitFor(3);
    expect(g.seen).toEqual(["/a", "/b", "/api/health"]);
    g.open(2);
    expect((await health).status).toBe(200);
    // A turn freed passes to the waiting request, not to a newcomer.
    g.open(0);
    expect((await a).status).toBe(200);
    await g.waitFor(4);
    expect(g.seen[3]).toBe("/c");
    g.open(1);
    g.open(3);
    expect([(await b).status, (await c).status]).toEqual([200, 200]);
    // All turns free again: a new request goes straight in.
    const e = fetch(req("/e"));
    await g.waitFor(5);
    g.open(4);
    expect((await e).status).toBe(200);
  });

  it("a request that waited QUEUE_TIMEOUT_MS for its turn is answered 503 and never runs", async () => {
    const g = gate();
    const fetch = shedLoad(g.fetch, { concurrent: 1, queued: 5, waitMs: 100, onShed: () => {} });
    const a = fetch(req("/a"));
    await g.waitFor(1);
    const started = performance.now();
    const b = await fetch(req("/b"));
    expect(b.status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    g.open(0);
    await a;
    await new Promise((r) => setTimeout(r, 20));
    expect(g.seen).toEqual(["/a"]);
  });

  it("on the Node server: a request stuck on the database holds the only turn; the next is 503 busy at once; health still answers", async () => {
    const { server, proxy, close } = await startTestServerBehindProxy({ MAX_CONCURRENT_REQUESTS: "1", MAX_QUEUED_REQUESTS: "0" }, { queryTimeoutMs: 3000 });
    try {
      const reg = await fetch(`${server.url}/api/auth/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: `shed-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }) });
      expect(reg.status).toBe(201);
      const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
      proxy.hold();
      const stuck = fetch(`${server.url}/api/accounts`, { headers: { Cookie: cookie } });
      await new Promise((r) => setTimeout(r, 200));
      const started = performance.now();
      const busy = await fetch(`${server.url}/api/accounts`, { headers: { Cookie: cookie } });
      expect(busy.status).toBe(503);
      expect(performance.now() - started).toBeLessThan(500);
      expect(busy.headers.get("Retry-After")).toBe("1");
      const health = await fetch(`${server.url}/api/health`);
      expect([200, 503]).toContain(health.status); // it answers (503: its database probe is held too), never queued
      proxy.release();
      expect((await stuck).status).toBe(200);
      expect((await fetch(`${server.url}/api/accounts`, { headers: { Cookie: cookie } })).status).toBe(200);
    } finally {
      proxy.release();
      await close();
    }
  });
});
