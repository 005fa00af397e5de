// Held under load (issue 61; tests/support/load.ts, docs/operations.md "Under load"): the short version of the
// load harness. 50 simulated traders for about a minute on the real Node server and Postgres, the database cut
// once in the middle for 3 seconds (a restart as the server sees it: every connection dropped, new ones refused,
// through a TCP proxy), then every write checked against each trader's own log.
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node-server.ts";
import { startTestServerBehindProxy } from "../support/node-server.ts";
import { checkWrites, runLoad, setUpTraders, summarize, type Trader } from "../support/load.ts";
import type { TcpProxy } from "../support/tcp-proxy.ts";

let server: NodeServer;
let proxy: TcpProxy;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ server, proxy, close } = await startTestServerBehindProxy({ TRUSTED_PROXIES: "127.0.0.1/32,::1/128" }, { queryTimeoutMs: 5000 }));
});
afterAll(async () => {
  await close?.();
});

describe("50 traders for a minute, the database gone for 3 seconds in the middle", () => {
  it("loses and doubles no write, keeps every balance exact, answers only 503 (with Retry-After, in time) while it is gone, and is back within 5 s", async () => {
    const traders: Trader[] = await setUpTraders(server.url, 50, { tag: "load-test" });
    const outage = { from: 0, to: 0 };
    const cutAt = 25_000;
    const run = runLoad(server.url, traders, { durationMs: 55_000, thinkMs: [300, 900], rampMs: 5_000, importEvery: 12 });
    await new Promise((r) => setTimeout(r, cutAt));
    outage.from = cutAt;
    await proxy.cut();
    await new Promise((r) => setTimeout(r, 3_000));
    await proxy.restore();
    outage.to = cutAt + 3_000;
    const { samples, writes } = await run;

    // Every answer: 2xx, or 503 while the database was gone (a request in flight when it went may finish just
    // after); never a 500, never a hang (status 0).
    const bad = samples.filter((s) => !(s.status >= 200 && s.status < 300) && !(s.status === 503 && s.at >= outage.from - 500 && s.at <= outage.to + 6_000));
    expect(bad.map((s) => `${s.route} ${s.status} at ${Math.round(s.at)} ms`)).toEqual([]);
    const during = samples.filter((s) => s.status === 503);
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((s) => !s.retryAfter)).toEqual([]);
    // A request during the gap is answered within its budget: a refused connection fails at once.
    expect(Math.max(...during.map((s) => s.ms))).toBeLessThan(6_000);
    // Back within 5 s of the database: the first 2xx after it returned, for reads and for writes.
    const firstOk = (routes: string[]) => Math.min(...samples.filter((s) => routes.includes(s.route) && s.status >= 200 && s.status < 300 && s.at - s.ms >= outage.to).map((s) => s.at));
    expect(firstOk(["dashboard", "trades", "trade", "ledger read"]) - outage.to).toBeLessThan(5_000);
    expect(firstOk(["note", "ledger write", "fills"]) - outage.to).toBeLessThan(5_000);

    // Nothing lost, nothing doubled, balances exact: from each trader's own log, against the database.
    const { problems, checked, unanswered } = await checkWrites(server.url, inject("databaseUrl"), traders, writes);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(200);
    expect(unanswered).toBe(0);
    const summary = summarize(samples);
    expect(summary.find((g) => g.route === "import")?.count ?? 0).toBeGreaterThan(10);
  }, 180_000);
});
