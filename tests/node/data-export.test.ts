// The whole-account JSON export and its import, on the real Postgres: a trader's data exported from one
// instance (its own database) and imported by a new user of a fresh instance (another database, migrated
// from scratch) gives back the same accounts, balances, ledgers, fills, trades and journals; a bad file
// changes nothing.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

const url = () => inject("databaseUrl");
let fresh: { name: string; url: string };
let source: TestApp;
let target: TestApp;
beforeAll(async () => {
  fresh = await createMigratedDatabase("journal_restore_test");
  source = await testApp(url(), {}, { peer: "per-request" });
  target = await testApp(fresh.url, {}, { peer: "per-request" });
});
afterAll(async () => {
  if (fresh) await dropDatabase(fresh.name);
});

const exportOf = async (client: TestClient) => {
  const res = await client.get("/api/auth/account/export");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="trading-journal-export-\d{4}-\d{2}-\d{2}\.json"$/);
  return res.text();
};

function importFile(client: TestClient, text: string) {
  const form = new FormData();
  form.set("file", new Blob([text]), "export.json");
  return client.request("/api/auth/account/import", { method: "POST", body: form });
}

/** Everything the journal shows for a user, ids left out (they differ between instances). */
async function snapshot(client: TestClient) {
  const accounts = (await (await client.get("/api/accounts")).json()).accounts as Array<Record<string, unknown> & { id: string }>;
  const out = [];
  for (const a of accounts) {
    const ledger = await (await client.get(`/api/ledger/${a.id}?pageSize=200`)).json();
    const trades = (await (await client.get(`/api/trades?accountId=${a.id}&pageSize=200`)).json()).trades as Array<Record<string, unknown>>;
    const fills = (await (await client.get(`/api/fills?accountId=${a.id}&pageSize=200`)).json()).fills as Array<Record<string, unknown>>;
    const stats = await (await client.get(`/api/stats/summary?accountId=${a.id}`)).json();
    const strip = ({ id: _i, accountId: _a, createdAt: _c, updatedAt: _u, brokerageId: _b, fillId: _f, importId: _m, ...rest }: Record<string, unknown>) => rest;
    out.push({
      account: strip(a),
      ledger: (ledger.entries as Array<Record<string, unknown>>).map(strip),
      trades: trades.map(strip).map(({ openFillId: _o, journalId, playbookId, ...t }) => ({ ...t, journaled: journalId !== null, playbook: playbookId !== null })),
      days: (await (await client.get(`/api/days?accountId=${a.id}&from=2026-01-01&to=2026-12-31`)).json()).days.map(strip),
      rules: (await (await client.get(`/api/rules?accountId=${a.id}`)).json()).rules.map(strip),
      compliance: ((await (await client.get(`/api/rules/compliance?accountId=${a.id}`)).json()).days as Array<{ broken: string[] }>).map((d) => ({ ...d, broken: d.broken.length })),
      fills: fills.map(strip),
      stats,
      // Option strategies: grouped by order, by hand, written on (their ids and trade ids differ between instances).
      strategies: ((await (await client.get(`/api/strategies?accountId=${a.id}`)).json()).strategies as Array<Record<string, unknown> & { legs: Array<{ symbol: string }> }>).map(
        ({ kind, source, notes, tags, setup, rating, plannedRisk, playbookId, netPnl, legs }) => ({ kind, source, notes, tags, setup, rating, plannedRisk, playbook: playbookId !== null, netPnl, legs: legs.map((l) => l.symbol) }),
      ),
    });
  }
  return out;
}

async function traderWithHistory(): Promise<{ client: TestClient }> {
  const { client } = await signUp(source, "exporter");
  const brokerage = await (await client.post("/api/brokerages", { name: "Interactive" })).json();
  const main = await (await client.post("/api/accounts", {
    name: "Swing",
    currency: "USD",
    startingBalance: "10000",
    startingBalanceAt: "2026-01-02T00:00:00Z",
    timezone: "America/New_York",
    brokerageId: brokerage.id,
  })).json();
  await client.post(`/api/ledger/${main.id}/entries`, { type: "deposit", amount: "2500.25", occurredAt: "2026-02-01T15:00:00Z", note: "Bonus" });
  await client.post(`/api/ledger/${main.id}/entries`, { type: "withdrawal", amount: "100", occurredAt: "2026-02-10T15:00:00Z" });
  // The account's default risk and fee schedule (applied below to an imported row without a fee).
  const patched = await client.request(`/api/accounts/${main.id}`, { method: "PATCH", json: { defaultRisk: "150", feeSchedule: { stock: { perOrder: "1" } } } });
  expect(patched.status).toBe(200);
  const form = new FormData();
  form.set("file", new Blob([GENERIC_SAMPLE]), "trades.csv");
  form.set("request", JSON.stringify({ accountId: main.id, presetId: "generic" }));
  const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
  expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
  // A partial exit left open, with fractional prices.
  await client.post("/api/fills", { accountId: main.id, symbol: "MSFT", side: "buy", quantity: "3", price: "401.1234", fees: "0.35", executedAt: "2026-03-03T15:00:00Z", executionId: "M1" });
  await client.post("/api/fills", { accountId: main.id, symbol: "MSFT", side: "sell", quantity: "1", price: "410", executedAt: "2026-03-04T15:00:00Z" });
  // MSFT split 2-for-1 between the two: the open trade holds 5 of today's shares.
  expect((await client.post("/api/splits", { symbol: "MSFT", date: "2026-03-04", newShares: "2", oldShares: "1" })).status).toBe(201);
  const noFee = new FormData();
  noFee.set("file", new Blob(["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID\n2026-03-05T15:00:00Z,KO,BUY,10,60,,K1\n"]), "ko.csv");
  noFee.set("request", JSON.stringify({ accountId: main.id, presetId: "generic" }));
  const koPreview = await (await client.request("/api/csv-import/preview", { method: "POST", body: noFee })).json();
  expect((await client.post("/api/csv-import/commit", { importId: koPreview.importId })).status).toBe(200);
  const trades = (await (await client.get(`/api/trades?accountId=${main.id}`)).json()).trades as Array<{ id: string; symbol: string }>;
  const book = await (await client.post("/api/playbooks", { name: "Bull flag", entryCriteria: "Break of the flag", items: [{ kind: "checkbox", label: "Volume" }, { kind: "choice", label: "Trend", options: ["up", "down"] }] })).json();
  await client.request(`/api/trades/${trades.find((t) => t.symbol === "AAPL")!.id}`, {
    method: "PATCH",
    json: { notes: "=cmd| plan held", tags: ["breakout", "earnings"], setup: "Flag", rating: 4, stopPrice: "169.5", targetPrice: "175", playbookId: book.id, playbookAnswers: { [book.items[0].id]: true, [book.items[1].id]: "up" } },
  });
  expect((await client.request("/api/tags/kind", { method: "PUT", json: { tag: "breakout", kind: "setup" } })).status).toBe(200);
  expect((await client.post("/api/rules", { accountId: main.id, rule: { type: "trading_hours", from: "09:30", to: "11:30" }, weight: "critical" })).status).toBe(201);
  expect((await client.post("/api/rules", { accountId: main.id, rule: { type: "max_loss_per_trade", r: "1.5" } })).status).toBe(201);
  expect((await client.request(`/api/days/${main.id}/2026-03-04`, { method: "PUT", json: { plan: "Trim MSFT into 410", review: "Did", mood: 4, tags: ["patient"] } })).status).toBe(200);
  await client.request(`/api/trades/${trades.find((t) => t.symbol === "MSFT")!.id}`, { method: "PATCH", json: { notes: "still open", tags: [] } });
  // Option legs: a vertical whose second leg filled five minutes after the first in the same order (one strategy by
  // its order id), and two calls of two days grouped by hand and written on.
  const occ = (strike: number) => `SPY   270115C${String(strike * 1000).padStart(8, "0")}`;
  const orders = new FormData();
  orders.set("file", new Blob([`When,Symbol,Side,Qty,Price,Fees,Exec,Order
2026-03-09T15:00:00Z,${occ(600)},BUY,1,5.00,0.65,O1,ORD-7
2026-03-09T15:05:00Z,${occ(610)},SELL,1,2.00,0.65,O2,ORD-7
`]), "orders.csv");
  orders.set("request", JSON.stringify({ accountId: main.id, mapping: { executedAt: "When", symbol: "Symbol", side: "Side", quantity: "Qty", price: "Price", fees: "Fees", executionId: "Exec", orderId: "Order" } }));
  const ordersPreview = await (await client.request("/api/csv-import/preview", { method: "POST", body: orders })).json();
  expect((await client.post("/api/csv-import/commit", { importId: ordersPreview.importId })).status).toBe(200);
  await client.post("/api/fills", { accountId: main.id, symbol: occ(620), side: "buy", quantity: "1", price: "1.50", fees: "0.65", executedAt: "2026-03-10T15:00:00Z" });
  await client.post("/api/fills", { accountId: main.id, symbol: occ(630), side: "sell", quantity: "1", price: "0.80", fees: "0.65", executedAt: "2026-03-11T15:00:00Z" });
  const calls = ((await (await client.get(`/api/trades?accountId=${main.id}`)).json()).trades as Array<{ id: string; symbol: string }>).filter((t) => t.symbol === occ(620) || t.symbol === occ(630));
  const grouped = await client.post("/api/strategies", { tradeIds: calls.map((t) => t.id) });
  expect(grouped.status).toBe(201);
  const strategyId = (await grouped.json()).strategy.id;
  expect((await client.request(`/api/strategies/${strategyId}`, { method: "PATCH", json: { notes: "Legged into a call spread", tags: ["legging"], rating: 3, plannedRisk: "70", playbookId: book.id } })).status).toBe(200);
  const empty = await (await client.post("/api/accounts", { name: "Empty EUR", currency: "EUR", timezone: "Europe/Paris" })).json();
  expect(empty.id).toBeDefined();
  return { client };
}

describe("the whole-account JSON export", () => {
  it("imported by a new user of a fresh instance, gives back the same accounts, ledgers, fills, trades, journals and statistics", async () => {
    const { client } = await traderWithHistory();
    const text = await exportOf(client);
    const data = JSON.parse(text);
    expect(data).toMatchObject({ format: "trading-journal-export", version: 1, brokerages: [{ name: "Interactive" }] });
    expect(data.accounts.map((a: { name: string }) => a.name)).toEqual(["Swing", "Empty EUR"]);
    expect(data.accounts[0].fills).toHaveLength(11);
    // The strategy grouped by hand and written on is in the file; the one its order makes again is not, but its fills carry the order.
    expect(data.accounts[0].strategies).toMatchObject([{ underlying: "SPY", source: "manual", notes: "Legged into a call spread", tags: ["legging"], rating: 3, plannedRisk: "70.00", playbook: data.playbooks[0].ref }]);
    expect(data.accounts[0].strategies[0].legs).toHaveLength(2);
    expect(data.accounts[0].fills.filter((f: { orderId: string | null }) => f.orderId === "ORD-7")).toHaveLength(2);
    expect(data.accounts[0]).toMatchObject({ defaultRisk: "150.00", feeSchedule: { stock: { perOrder: "1" } } });
    expect(data.accounts[0].fills.find((f: { symbol: string }) => f.symbol === "KO")).toMatchObject({ fees: "1.00", feesEstimated: true });
    expect(data.accounts[0].journal[0]).toMatchObject({ stopPrice: "169.50", targetPrice: "175.00", plannedRisk: null, playbook: data.playbooks[0].ref });
    expect(data.playbooks).toMatchObject([{ name: "Bull flag", entryCriteria: "Break of the flag", archived: false, items: [{ kind: "checkbox" }, { kind: "choice", options: ["up", "down"] }] }]);
    expect(data.tagKinds).toEqual([{ tag: "breakout", kind: "setup" }]);
    expect(data.accounts[0].rules).toEqual([
      { rule: { type: "trading_hours", from: "09:30", to: "11:30" }, weight: "critical", enabled: true },
      { rule: { type: "max_loss_per_trade", r: "1.5" }, weight: "important", enabled: true },
    ]);
    expect(data.accounts[0].days).toEqual([{ day: "2026-03-04", plan: "Trim MSFT into 410", review: "Did", mood: 4, tags: ["patient"] }]);
    expect(data.splits).toEqual([{ symbol: "MSFT", effectiveAt: "2026-03-04T05:00:00.000000Z", newShares: "2.00", oldShares: "1.00" }]);
    expect(data.accounts[0].ledger.map((e: { type: string; amount: string }) => [e.type, e.amount])).toEqual([
      ["deposit", "2500.25"],
      ["withdrawal", "-100.00"],
    ]);

    const { client: newcomer } = await signUp(target, "importer");
    const res = await importFile(newcomer, text);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toEqual({ accounts: 2, fills: 11, entries: 2, journaled: 2 });
    const restored = await snapshot(newcomer);
    expect((await (await newcomer.get("/api/tags")).json()).tags).toContainEqual({ tag: "breakout", kind: "setup", trades: 1 });
    expect(restored).toEqual(await snapshot(client));
    // The split came along: MSFT is one open trade of 5 post-split shares, the plan on AAPL gives its R.
    const swing = restored[0]!.trades as unknown as Array<{ symbol: string; openQuantity: string; risk: { oneR: string | null } }>;
    expect(swing.find((t) => t.symbol === "MSFT")?.openQuantity).toBe("5.00");
    expect(swing.find((t) => t.symbol === "AAPL")?.risk.oneR).toBe("100.00");
    // And the new instance's export of it is the same file, but for the ids and the time it was made.
    const again = JSON.parse(await exportOf(newcomer));
    const withoutIds = (d: typeof data) =>
      JSON.parse(JSON.stringify({ ...d, exportedAt: null }).replace(/"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"id"'));
    expect(withoutIds(again)).toEqual(withoutIds(data));
  });

  it("refuses a file it cannot take with a plain message, and writes nothing", async () => {
    const { client } = await traderWithHistory();
    const good = JSON.parse(await exportOf(client));
    const { client: other, userId } = await signUp(target, "careful");
    const counts = async () =>
      rowsOf<{ a: number; f: number; b: number }>(
        await target.deps.db.execute(sql`select (select count(*)::int from accounts where user_id = ${userId}) as a,
          (select count(*)::int from fills f join accounts a on a.id = f.account_id where a.user_id = ${userId}) as f,
          (select count(*)::int from brokerages where user_id = ${userId}) as b`),
      )[0];
    const before = await counts();
    const broken = (change: (d: typeof good) => void) => {
      const copy = structuredClone(good);
      change(copy);
      return JSON.stringify(copy);
    };
    for (const [text, status, code] of [
      ["not json {", 400, "VALIDATION_ERROR"],
      [JSON.stringify({ ...good, version: 2 }), 400, "VALIDATION_ERROR"],
      [broken((d) => (d.accounts[0].fills[0].quantity = "-1")), 400, "VALIDATION_ERROR"],
      [broken((d) => (d.accounts[0].journal[0].openFill = "nope")), 400, "VALIDATION_ERROR"],
      [broken((d) => (d.accounts[0].brokerage = "missing")), 400, "VALIDATION_ERROR"],
      [broken((d) => (d.accounts[1].name = "swing")), 400, "VALIDATION_ERROR"],
      [broken((d) => (d.accounts[0].fills[0].symbol = "A\u0000")), 400, "VALIDATION_ERROR"],
      [broken((d) => (d.accounts[1].timezone = "Mars/Olympus")), 400, "INVALID_TIMEZONE"],
      [broken((d) => (d.accounts[0].fills[2].executedAt = "9999-12-31T23:59:59-14:00")), 400, "VALIDATION_ERROR"],
    ] as const) {
      const res = await importFile(other, text);
      const body = await res.json();
      expect([res.status, body.error.code], text.slice(0, 80)).toEqual([status, code]);
      expect(JSON.stringify(body)).not.toMatch(/select|insert|at .*\.ts/i);
    }
    expect(await counts()).toEqual(before);

    // A name the user already has: 409, and nothing of the file is written (the other account included).
    await other.post("/api/accounts", { name: "Empty EUR", currency: "EUR" });
    const taken = await importFile(other, JSON.stringify(good));
    expect(taken.status).toBe(409);
    expect((await taken.json()).error.message).toMatch(/already have an account named "Empty EUR"/);
    expect(await counts()).toEqual({ ...before, a: before!.a + 1 });
  });

  it("a crafted file is held to the API's rules: every refused row is named, all or nothing", async () => {
    const { client } = await traderWithHistory();
    const good = JSON.parse(await exportOf(client));
    const { client: other, userId } = await signUp(target, "crafted");
    const state = async () =>
      rowsOf(await target.deps.db.execute(sql`select (select count(*)::int from accounts where user_id = ${userId}) as a,
        (select count(*)::int from brokerages where user_id = ${userId}) as b`))[0];
    const before = await state();
    const crafted = structuredClone(good);
    const [swing] = crafted.accounts;
    swing.fills[0].symbol = "=HYPERLINK(\"http://evil.example\",\"AAPL\")";
    swing.fills[1].symbol = "<svg onload=alert(1)>";
    swing.fills[2].assetClass = "option"; // an option without an OCC symbol
    swing.fills[2].multiplier = "100";
    swing.ledger.push({ type: "deposit", amount: "-500.00", occurredAt: "2026-02-03T15:00:00.000Z", note: null });
    swing.ledger.push({ type: "withdrawal", amount: "500.00", occurredAt: "2026-02-04T15:00:00.000Z", note: null });
    swing.ledger.push({ type: "adjustment", amount: "0.00", occurredAt: "2026-02-05T15:00:00.000Z", note: null });
    const res = await importFile(other, JSON.stringify(crafted));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.message).toMatch(/break the journal's rules.*nothing was imported/);
    const paths = (body.error.fields as Array<{ path: string; message: string }>).map((f) => f.path);
    expect(paths).toEqual([
      "accounts.0.fills.0.symbol",
      "accounts.0.fills.1.symbol",
      "accounts.0.fills.2.symbol",
      "accounts.0.ledger.2.amount",
      "accounts.0.ledger.3.amount",
      "accounts.0.ledger.4.amount",
    ]);
    expect(body.error.fields[2].message).toMatch(/^fill 3 \(ref .+\) of account "Swing": symbol must be an OCC option symbol/);
    expect(body.error.fields[3].message).toMatch(/deposit of -500.00\) of account "Swing": amount of a deposit must be positive/);
    expect(await state()).toEqual(before);

    // A fill worth more than the columns hold is a 400 naming it, never a 500.
    const huge = structuredClone(good);
    huge.accounts[0].fills[0].quantity = "999999999999999999";
    huge.accounts[0].fills[0].price = "999999999999999999";
    const tooBig = await importFile(other, JSON.stringify(huge));
    expect(tooBig.status).toBe(400);
    expect((await tooBig.json()).error.fields).toEqual([
      { path: "accounts.0.fills.0.quantity", message: expect.stringMatching(/quantity x price x multiplier is larger than the journal can hold/) },
    ]);
    // Rows that fit one by one but whose running balance does not: a 400 too.
    const sum = structuredClone(good);
    sum.accounts[0].startingBalance = "900000000000000000";
    sum.accounts[0].ledger.push({ type: "deposit", amount: "900000000000000000", occurredAt: "2026-02-06T15:00:00.000Z", note: null });
    const overflow = await importFile(other, JSON.stringify(sum));
    expect(overflow.status).toBe(400);
    expect((await overflow.json()).error.message).toMatch(/running balance/);
    expect(await state()).toEqual(before);
  });

  it("a file's tags are held to the API's tag rules: blank refused, padded trimmed, one tag once, in the user's own spelling", async () => {
    const { client } = await traderWithHistory();
    const good = JSON.parse(await exportOf(client));
    const { client: other, userId } = await signUp(target, "file-tags");
    // The importer already writes this tag in capitals (a kind given to it).
    expect((await other.request("/api/tags/kind", { method: "PUT", json: { tag: "CALM", kind: "emotion" } })).status).toBe(200);
    const accounts = async () => rowsOf(await target.deps.db.execute(sql`select 1 from accounts where user_id = ${userId}`)).length;

    const blank = structuredClone(good);
    blank.accounts[0].journal[0].tags = ["ok", "   "];
    const refused = await importFile(other, JSON.stringify(blank));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toContainEqual({ path: "accounts.0.journal.0.tags.1", message: "must not be empty" });
    expect(await accounts()).toBe(0);

    const messy = structuredClone(good);
    messy.accounts[0].journal[0].tags = ["  padded  ", "Breakout", "breakout", "BREAKOUT "];
    messy.accounts[0].days = [{ day: "2026-02-03", plan: null, review: null, mood: null, tags: [" calm", "Calm", "focus "] }];
    messy.tagKinds = [
      { tag: " fomo ", kind: "mistake" },
      { tag: "FOMO", kind: "emotion" },
    ];
    const res = await importFile(other, JSON.stringify(messy));
    expect(res.status).toBe(201);
    const tradeTags = rowsOf<{ tags: string[] }>(
      await target.deps.db.execute(sql`select j.tags from trade_journals j join accounts a on a.id = j.account_id where a.user_id = ${userId} and cardinality(j.tags) > 0 order by j.created_at`),
    ).map((r) => r.tags);
    expect(tradeTags).toContainEqual(["padded", "Breakout"]);
    const dayTags = rowsOf<{ tags: string[] }>(await target.deps.db.execute(sql`select d.tags from day_journals d join accounts a on a.id = d.account_id where a.user_id = ${userId}`));
    expect(dayTags.map((r) => r.tags)).toEqual([["CALM", "focus"]]);
    const kinds = rowsOf<{ tag: string; kind: string }>(await target.deps.db.execute(sql`select tag, kind from tag_kinds where user_id = ${userId} order by tag`));
    expect(kinds).toEqual([
      { tag: "CALM", kind: "emotion" },
      { tag: "fomo", kind: "mistake" },
    ]);
    // The same tags through the API read the same.
    const listed = ((await (await other.get("/api/tags")).json()) as { tags: Array<{ tag: string }> }).tags.map((t) => t.tag);
    expect(listed.filter((t) => t !== t.trim() || t === "")).toEqual([]);
  });

  it("keeps the Free plan's account cap when FEATURE_GATING is on", async () => {
    const { client } = await traderWithHistory();
    const text = await exportOf(client);
    const gated = await testApp(fresh.url, { FEATURE_GATING: "true" }, { peer: "per-request" });
    const { client: free } = await signUp(gated, "free");
    const res = await importFile(free, text);
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("TIER_LIMIT_ACCOUNTS");
    expect((await (await free.get("/api/accounts")).json()).accounts).toEqual([]);
  });

  it("a signed-out request is 401; a JSON body instead of a file is 415", async () => {
    expect((await source.client().get("/api/auth/account/export")).status).toBe(401);
    const { client } = await signUp(source, "shape");
    expect((await client.post("/api/auth/account/import", { format: "trading-journal-export" })).status).toBe(415);
  });
});
