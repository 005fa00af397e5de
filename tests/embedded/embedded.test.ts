import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { startNodeServer } from "../../functions/node-server.ts";
import { createEmbeddedDb } from "../../lib/db/node.ts";
import { loadFunctionFiles } from "../../lib/db/functions.ts";
import { migrateHandle, POST_MIGRATIONS_DIR, rowsOf } from "../../lib/db/migrate.ts";
import { readTemplate } from "../../lib/db/pglite-template.ts";
import { createLogger } from "../../lib/log.ts";
import { loadTickers } from "../../lib/market/tickers.ts";
import { testConfig } from "../support/env.ts";
import { startMarketServer } from "../support/market-server.ts";
import { GPS_MARK, pngImage } from "../support/images.ts";

const dir = mkdtempSync(join(tmpdir(), "journal-pglite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function countMigrations(db: Awaited<ReturnType<typeof createEmbeddedDb>>["db"]) {
  const [main] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__migrations`));
  const [post] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__post_migrations`));
  return { main: main!.n, post: post!.n };
}

/** A new user signed in on a running server: `send` carries its session cookie, `post` sends a JSON body. */
async function signedIn(base: string, email: string) {
  const register = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "embedded password" }),
  });
  expect(register.status).toBe(201);
  const cookie = register.headers.getSetCookie()[0]!.split(";")[0]!;
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { Cookie: cookie, ...(init.headers as Record<string, string>) } });
  const post = (path: string, body: unknown) => send(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
  return { send, post };
}

describe("the embedded database", () => {
  it("applies every migration to a folder, and a reopen applies nothing twice", async () => {
    const url = `pglite:${join(dir, "journal")}`;
    const first = await createEmbeddedDb(url, { template: false });
    const report = await migrateHandle(first, { skipPost: false });
    expect(report.postApplied).toEqual(readdirSync(POST_MIGRATIONS_DIR).filter((f) => f.endsWith(".sql")).sort());
    const counts = await countMigrations(first.db);
    expect(counts.main).toBeGreaterThan(0);
    const recorded = rowsOf<{ file: string }>(await first.db.execute(sql`select file from drizzle.__functions order by file`));
    expect(recorded.map((r) => r.file)).toEqual((await loadFunctionFiles()).map((f) => f.file).sort());
    await first.db.execute(sql`insert into users (email, password_hash) values ('persist@example.com', 'x')`);
    await first.close();

    const again = await createEmbeddedDb(url);
    const second = await migrateHandle(again, { skipPost: false });
    expect(second.postApplied).toEqual([]);
    expect(await countMigrations(again.db)).toEqual(counts);
    const rows = rowsOf<{ email: string }>(await again.db.execute(sql`select email from users`));
    expect(rows.map((r) => r.email)).toEqual(["persist@example.com"]);
    await again.close();
  });

  it("a fresh database starts from the migrated template once one is saved: the same schema, no migration to apply", async () => {
    const start = (url: string) => startNodeServer(testConfig({ DATABASE_URL: url }), { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
    // The first fresh start saves the template (unless an earlier one already did).
    const first = await start("pglite:memory");
    const expected = await countMigrations(first.handle.db);
    await first.close();
    expect(readTemplate()).toBeDefined();
    for (const url of ["pglite:memory", `pglite:${join(dir, "from-template")}`]) {
      const started = performance.now();
      const server = await start(url);
      const took = performance.now() - started;
      try {
        // Loaded, not built: nothing left to save, and every migration already recorded.
        expect(server.handle.saveTemplate, url).toBeUndefined();
        expect(await countMigrations(server.handle.db)).toEqual(expected);
        const res = await fetch(`${server.url}/api/auth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: `template-${url.length}@example.com`, password: "embedded password" }),
        });
        expect(res.status).toBe(201);
        console.log(`fresh embedded start from the template (${url.startsWith("pglite:memory") ? "memory" : "folder"}): ${took.toFixed(0)} ms`);
      } finally {
        await server.close();
      }
    }
    // The folder keeps what was written: a reopen reads the user back.
    const reopened = await createEmbeddedDb(`pglite:${join(dir, "from-template")}`);
    const users = rowsOf<{ n: number }>(await reopened.db.execute(sql`select count(*)::int as n from users`));
    expect(users[0]!.n).toBe(1);
    await reopened.close();
  });

  it("serves GET /api/health from the Node entrypoint with no Postgres server", async () => {
    const server = await startNodeServer(testConfig({ DATABASE_URL: "pglite:memory" }), {
      port: 0,
      hostname: "127.0.0.1",
      scheduler: false,
      log: createLogger({ silent: true }),
    });
    try {
      const res = await fetch(`${server.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", database: "up" });
      const missing = await fetch(`${server.url}/api/nope`);
      expect(missing.status).toBe(404);
      expect(server.handle.kind).toBe("pglite");
    } finally {
      await server.close();
    }
  });

  it("loads the ticker file, searches it and answers a quote on the embedded database", async () => {
    const market = await startMarketServer();
    const config = testConfig({ DATABASE_URL: "pglite:memory", ...market.env });
    const log = createLogger({ silent: true });
    const server = await startNodeServer(config, { port: 0, hostname: "127.0.0.1", scheduler: false, log });
    try {
      expect(await loadTickers({ db: server.handle.db, config, fetch, log })).toEqual({ status: "loaded", rows: 18 });
      // Fresh: a second (unforced) load is skipped; a forced one swaps in the plain shape.
      expect(await loadTickers({ db: server.handle.db, config, fetch, log })).toEqual({ status: "skipped" });
      const plain = { ...config, REGULATOR_TICKERS_URL: market.tickersUrl("plain.json") };
      expect(await loadTickers({ db: server.handle.db, config: plain, fetch, log }, { force: true })).toEqual({ status: "loaded", rows: 18 });
      await expect(loadTickers({ db: server.handle.db, config: { ...config, REGULATOR_TICKERS_URL: market.tickersUrl("malformed.json") }, fetch, log }, { force: true })).rejects.toThrow();

      const { send: get } = await signedIn(server.url, "pglite-market@example.com");
      const found = await get("/api/symbols?q=hathaway");
      expect(found.status).toBe(200);
      expect((await found.json()).symbols.map((s: { ticker: string }) => s.ticker)).toEqual(["BRK-A", "BRK-B"]);
      expect(((await (await get("/api/symbols?q=F")).json()).symbols as Array<{ ticker: string }>)[0]!.ticker).toBe("F");
      const quote = await get("/api/quotes/AAPL");
      expect(await quote.json()).toMatchObject({ symbol: "AAPL", price: "190.12", stale: false });
    } finally {
      await server.close();
      await market.close();
    }
  });

  it("reads the dashboard's statistics from the maintained rows on the embedded database, the same twice", async () => {
    const config = testConfig({ DATABASE_URL: "pglite:memory" });
    const server = await startNodeServer(config, { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
    try {
      const { send, post } = await signedIn(server.url, "pglite-stats@example.com");
      const account = await (await post("/api/accounts", { name: "Embedded", currency: "USD", timezone: "America/New_York" })).json();
      for (const [side, price, at] of [["buy", "100", "2026-03-02T15:00:00Z"], ["sell", "103", "2026-03-02T16:00:00Z"], ["buy", "50", "2026-03-03T15:00:00Z"], ["sell", "49", "2026-03-03T15:30:00Z"]]) {
        expect((await post("/api/fills", { accountId: account.id, symbol: "AAPL", side, quantity: "10", price, executedAt: at })).status).toBe(201);
      }
      const q = `accountId=${account.id}`;
      // The first read settles the notes; the second reads the rows through the statements named at the first.
      for (let i = 0; i < 2; i++) {
        const summary = await (await send(`/api/stats/summary?${q}`)).json();
        expect(summary).toMatchObject({ trades: 2, wins: 1, losses: 1, netPnl: "20.00" });
        const equity = await (await send(`/api/stats/equity?${q}`)).json();
        expect(equity.points.map((p: { start: string; equity: string }) => [p.start, p.equity])).toEqual([["2026-03-02", "30.00"], ["2026-03-03", "20.00"]]);
        const calendar = await (await send(`/api/stats/calendar?${q}&from=2026-03-01T05:00:00Z&to=2026-04-01T04:00:00Z`)).json();
        expect(calendar.days.map((d: { date: string; netPnl: string }) => [d.date, d.netPnl])).toEqual([["2026-03-02", "30.00"], ["2026-03-03", "-10.00"]]);
        const bySymbol = await (await send(`/api/stats/breakdown?${q}&by=symbol`)).json();
        expect(bySymbol.groups).toMatchObject([{ key: "AAPL", netPnl: "20.00", trades: 2 }]);
      }
    } finally {
      await server.close();
    }
  });

  it("keeps a trade screenshot inline (bytea) and serves it back byte for byte", async () => {
    const server = await startNodeServer(testConfig({ DATABASE_URL: "pglite:memory" }), { port: 0, hostname: "127.0.0.1", scheduler: false, log: createLogger({ silent: true }) });
    try {
      const { send, post } = await signedIn(server.url, "pglite-images@example.com");
      const account = await (await post("/api/accounts", { name: "Embedded", currency: "USD" })).json();
      await post("/api/fills", { accountId: account.id, symbol: "AAPL", side: "buy", quantity: "1", price: "10", executedAt: "2026-03-02T15:00:00Z" });
      const tradeId = (await (await send(`/api/trades?accountId=${account.id}`)).json()).trades[0].id as string;
      const form = new FormData();
      form.set("file", new Blob([pngImage({ metadata: true }) as BlobPart]), "shot.png");
      const added = await send(`/api/trades/${tradeId}/images`, { method: "POST", body: form });
      expect(added.status).toBe(201);
      const image = await added.json();
      const back = Buffer.from(await (await send(`/api/trades/${tradeId}/images/${image.id}`)).arrayBuffer());
      expect(back.length).toBe(image.bytes);
      expect(back.subarray(0, 8).equals(pngImage().subarray(0, 8))).toBe(true);
      expect(back.includes(GPS_MARK)).toBe(false);
    } finally {
      await server.close();
    }
  });
});
