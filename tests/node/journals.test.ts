// Journals follow fills (docs/trading.md, "Your notes follow your fills"): what a trader wrote on a trade
// (notes, tags, setup, rating, screenshots) survives fills added, edited or deleted, an import undone and
// imported again: it follows the trade holding the most of its fills, or is kept as a detached note that
// re-attaches when those fills return. Never deleted but by the trader. On the real Postgres.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_HEADER, GENERIC_SAMPLE } from "../support/csv.ts";
import { pngImage } from "../support/images.ts";

const url = () => inject("databaseUrl");

async function trader(timezone = "America/New_York") {
  const j = await journal(url());
  const { client, userId } = await j.signUp("journaler");
  const res = await client.post("/api/accounts", { name: `Notes ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone });
  expect(res.status).toBe(201);
  return { ...j, client, userId, accountId: (await res.json()).id as string };
}
type Trader = Awaited<ReturnType<typeof trader>>;

async function addFill(t: Trader, body: Record<string, string>) {
  const res = await t.client.post("/api/fills", { accountId: t.accountId, ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

async function tradesOf(t: Trader) {
  const res = await t.client.get(`/api/trades?accountId=${t.accountId}&pageSize=200`);
  expect(res.status).toBe(200);
  return (await res.json()).trades as Array<{ id: string; symbol: string; notes: string | null; tags: string[]; setup: string | null; rating: number | null; journalId: string | null; status: string }>;
}

async function write(t: Trader, tradeId: string, body: Record<string, unknown>) {
  const res = await t.client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).trade as { journalId: string };
}

async function screenshot(client: TestClient, tradeId: string, rgb: [number, number, number]) {
  const form = new FormData();
  form.set("file", new Blob([pngImage({ rgb }) as BlobPart]), "chart.png");
  const res = await client.request(`/api/trades/${tradeId}/images`, { method: "POST", body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

async function detached(t: Trader) {
  const res = await t.client.get(`/api/journals/detached?accountId=${t.accountId}`);
  expect(res.status).toBe(200);
  return (await res.json()).journals as Array<Record<string, unknown> & { id: string; images: Array<{ id: string }> }>;
}

async function imagesOf(client: TestClient, tradeId: string) {
  return ((await (await client.get(`/api/trades/${tradeId}/images`)).json()).images as Array<{ id: string }>).map((i) => i.id);
}

function csvUpload(t: Trader, csv: string) {
  const form = new FormData();
  form.set("file", new Blob([csv]), "trades.csv");
  form.set("request", JSON.stringify({ accountId: t.accountId, presetId: "generic" }));
  return t.client.request("/api/csv-import/preview", { method: "POST", body: form });
}

async function importCsv(t: Trader, csv: string) {
  const preview = await csvUpload(t, csv);
  expect(preview.status, await preview.clone().text()).toBe(201);
  const { importId } = await preview.json();
  const commit = await t.client.post("/api/csv-import/commit", { importId });
  expect(commit.status, await commit.clone().text()).toBe(200);
  return importId as string;
}

const JOURNAL = { notes: "Waited for the opening range, sized down.", tags: ["breakout", "a+"], setup: "ORB", rating: 4 };

describe("a missed fill added to a journaled trade", () => {
  it("an earlier scale-in keeps the notes and screenshots on the trade; deleting it again keeps them too; old links lead to it", async () => {
    const t = await trader();
    await addFill(t, { symbol: "AAPL", side: "buy", quantity: "100", price: "190", executedAt: "2026-03-02T10:00:00-05:00" });
    await addFill(t, { symbol: "AAPL", side: "sell", quantity: "100", price: "192", executedAt: "2026-03-02T11:00:00-05:00" });
    const [first] = await tradesOf(t);
    const { journalId } = await write(t, first!.id, JOURNAL);
    const shots = [await screenshot(t.client, first!.id, [200, 0, 0]), await screenshot(t.client, first!.id, [0, 200, 0])];

    // The missed scale-in opened the position half an hour earlier: the trade is rebuilt from it.
    const missed = await addFill(t, { symbol: "AAPL", side: "buy", quantity: "50", price: "189", executedAt: "2026-03-02T09:30:00-05:00" });
    const [second, ...more] = await tradesOf(t);
    expect(more).toEqual([]);
    expect(second!.id).not.toBe(first!.id);
    expect(second).toMatchObject({ ...JOURNAL, journalId, status: "open" });
    expect(await imagesOf(t.client, second!.id)).toEqual(shots.map((s) => s.id));
    // The old link: the trade id is gone, its journal says where it is now, and the old address sends a request on
    // (308) to the trade holding the notes, so a page kept open never meets a 404.
    const sent = await t.client.get(`/api/trades/${first!.id}?x=1`);
    expect(sent.status).toBe(308);
    expect(sent.headers.get("location")).toBe(`/api/trades/${second!.id}?x=1`);
    // Another user's old address is no one's to them: 404, no Location.
    const stranger = await trader();
    const theirs = await stranger.client.get(`/api/trades/${first!.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get("location")).toBeNull();
    const found = await (await t.client.get(`/api/journals/by-trade/${first!.id}`)).json();
    expect(found).toMatchObject({ id: journalId, tradeId: second!.id, formerTradeIds: [first!.id] });

    // Deleting the fill again: the original fills make a trade again, and the journal is on it.
    expect((await t.client.delete(`/api/fills/${missed.id}`)).status).toBe(204);
    const [third] = await tradesOf(t);
    expect(third).toMatchObject({ ...JOURNAL, journalId, status: "closed" });
    expect(await imagesOf(t.client, third!.id)).toEqual(shots.map((s) => s.id));
    for (const old of [first!.id, second!.id]) {
      expect(await (await t.client.get(`/api/journals/by-trade/${old}`)).json()).toMatchObject({ id: journalId, tradeId: third!.id });
      expect((await t.client.get(`/api/trades/${old}`)).headers.get("location")).toBe(`/api/trades/${third!.id}`);
    }
    expect(await detached(t)).toEqual([]);
  });

  it("a fill that splits a trade in two: the journal stays with the part holding most of its fills", async () => {
    const t = await trader();
    await addFill(t, { symbol: "MSFT", side: "buy", quantity: "100", price: "400", executedAt: "2026-03-03T10:00:00Z" });
    await addFill(t, { symbol: "MSFT", side: "sell", quantity: "50", price: "401", executedAt: "2026-03-03T11:00:00Z" });
    await addFill(t, { symbol: "MSFT", side: "buy", quantity: "50", price: "399", executedAt: "2026-03-03T12:00:00Z" });
    await addFill(t, { symbol: "MSFT", side: "buy", quantity: "50", price: "398", executedAt: "2026-03-03T13:00:00Z" });
    await addFill(t, { symbol: "MSFT", side: "sell", quantity: "50", price: "403", executedAt: "2026-03-03T14:00:00Z" });
    const [trade] = await tradesOf(t);
    const { journalId } = await write(t, trade!.id, { notes: "one long trade" });
    // A missed sell of 50 at 11:30 makes the position flat before the 12:00 buy: two trades, the first holding
    // 2 of the journal's fills (and the new one), the second 3 of them: the journal goes with the second.
    await addFill(t, { symbol: "MSFT", side: "sell", quantity: "50", price: "401.5", executedAt: "2026-03-03T11:30:00Z" });
    const list = await tradesOf(t);
    expect(list).toHaveLength(2);
    const [later, earlier] = list;
    expect(later).toMatchObject({ journalId, notes: "one long trade" });
    expect(earlier).toMatchObject({ journalId: null, notes: null });
  });
});

describe("fills deleted and undone", () => {
  it("deleting every fill keeps the journal as a detached note with its screenshots; the same fill back re-attaches it", async () => {
    const t = await trader();
    const fill = await addFill(t, { symbol: "NVDA", side: "buy", quantity: "10", price: "900", executedAt: "2026-03-04T15:00:00Z" });
    const [trade] = await tradesOf(t);
    const { journalId } = await write(t, trade!.id, JOURNAL);
    const shot = await screenshot(t.client, trade!.id, [0, 0, 200]);
    expect(await (await t.client.get(`/api/journals/impact?fillId=${fill.id}`)).json()).toEqual({ journaledTrades: 1, screenshots: 1 });

    expect((await t.client.delete(`/api/fills/${fill.id}`)).status).toBe(204);
    expect(await tradesOf(t)).toEqual([]);
    const [note, ...others] = await detached(t);
    expect(others).toEqual([]);
    expect(note).toMatchObject({
      id: journalId,
      tradeId: null,
      symbol: "NVDA",
      direction: "long",
      openedAt: "2026-03-04T15:00:00.000Z",
      fills: 1,
      currency: "USD",
      ...JOURNAL,
      images: [{ id: shot.id }],
      formerTradeIds: [trade!.id],
    });
    expect(note!.detachedAt).toEqual(expect.stringMatching(/Z$/));
    const bytes = await t.client.get(`/api/journals/${journalId}/images/${shot.id}`);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");
    expect(await (await t.client.get(`/api/journals/by-trade/${trade!.id}`)).json()).toMatchObject({ id: journalId, tradeId: null });
    // Its fills gone, the trade is not anywhere: 404 (the web app says where the notes went).
    expect((await t.client.get(`/api/trades/${trade!.id}`)).status).toBe(404);

    // The same execution typed again (to the second, same side, quantity and price): the note comes back.
    await addFill(t, { symbol: "NVDA", side: "buy", quantity: "10", price: "900", executedAt: "2026-03-04T15:00:00.400Z" });
    const [back] = await tradesOf(t);
    expect(back).toMatchObject({ ...JOURNAL, journalId });
    expect(await imagesOf(t.client, back!.id)).toEqual([shot.id]);
    expect(await detached(t)).toEqual([]);
  });

  it("undoing an import keeps its trades' journals detached; importing the same file again re-attaches them", async () => {
    const t = await trader();
    const importId = await importCsv(t, GENERIC_SAMPLE);
    const list = await tradesOf(t);
    expect(list).toHaveLength(2);
    const aapl = list.find((x) => x.symbol === "AAPL")!;
    const es = list.find((x) => x.symbol === "ESZ26")!;
    const aaplJournal = (await write(t, aapl.id, { notes: "AAPL idea", tags: ["earnings"] })).journalId;
    const esJournal = (await write(t, es.id, { setup: "fade", rating: 2 })).journalId;
    const shot = await screenshot(t.client, es.id, [10, 10, 10]);
    expect(await (await t.client.get(`/api/journals/impact?importId=${importId}`)).json()).toEqual({ journaledTrades: 2, screenshots: 1 });

    expect((await t.client.post(`/api/csv-import/${importId}/undo`)).status).toBe(200);
    expect(await tradesOf(t)).toEqual([]);
    expect((await detached(t)).map((j) => j.id).sort()).toEqual([aaplJournal, esJournal].sort());

    // The same file again (the everyday fix of a wrong import): matched by execution id.
    await importCsv(t, GENERIC_SAMPLE);
    const again = await tradesOf(t);
    expect(again.find((x) => x.symbol === "AAPL")).toMatchObject({ journalId: aaplJournal, notes: "AAPL idea", tags: ["earnings"] });
    expect(again.find((x) => x.symbol === "ESZ26")).toMatchObject({ journalId: esJournal, setup: "fade", rating: 2 });
    expect(await imagesOf(t.client, again.find((x) => x.symbol === "ESZ26")!.id)).toEqual([shot.id]);
    expect(await detached(t)).toEqual([]);
  });

  it("re-attaches by account, symbol, time to the second, side, quantity and price when the new file has no execution ids", async () => {
    const t = await trader();
    const importId = await importCsv(t, GENERIC_SAMPLE);
    const aapl = (await tradesOf(t)).find((x) => x.symbol === "AAPL")!;
    const { journalId } = await write(t, aapl.id, { notes: "kept" });
    expect((await t.client.post(`/api/csv-import/${importId}/undo`)).status).toBe(200);
    // The same executions exported without ids (another format of the same broker).
    await importCsv(t, [GENERIC_HEADER, "2026-03-02T09:31:00,AAPL,BUY,100,170.50,1.00,", "2026-03-02T10:15:00,AAPL,SELL,100,172.25,1.00,"].join("\n"));
    expect((await tradesOf(t))[0]).toMatchObject({ symbol: "AAPL", journalId, notes: "kept" });
    // Not when the price differs: that is another execution.
    const t2 = await trader();
    const other = await importCsv(t2, GENERIC_SAMPLE);
    const trade2 = (await tradesOf(t2)).find((x) => x.symbol === "AAPL")!;
    await write(t2, trade2.id, { notes: "stays detached" });
    await t2.client.post(`/api/csv-import/${other}/undo`);
    await importCsv(t2, [GENERIC_HEADER, "2026-03-02T09:31:00,AAPL,BUY,100,170.60,1.00,", "2026-03-02T10:15:00,AAPL,SELL,100,172.35,1.00,"].join("\n"));
    expect((await tradesOf(t2))[0]).toMatchObject({ journalId: null });
    expect((await detached(t2)).map((j) => j.notes)).toEqual(["stays detached"]);
  });
});

describe("two journaled trades that become one", () => {
  it("the trade's own journal stays; the other is detached, and attaching it by hand merges it, losing nothing", async () => {
    const t = await trader();
    await addFill(t, { symbol: "TSLA", side: "buy", quantity: "100", price: "200", executedAt: "2026-03-05T15:00:00Z" });
    const sellA = await addFill(t, { symbol: "TSLA", side: "sell", quantity: "100", price: "210", executedAt: "2026-03-05T15:10:00Z" });
    await addFill(t, { symbol: "TSLA", side: "buy", quantity: "100", price: "205", executedAt: "2026-03-05T15:20:00Z" });
    await addFill(t, { symbol: "TSLA", side: "sell", quantity: "50", price: "206", executedAt: "2026-03-05T15:30:00Z" });
    await addFill(t, { symbol: "TSLA", side: "sell", quantity: "50", price: "207", executedAt: "2026-03-05T15:40:00Z" });
    const [b, a] = await tradesOf(t);
    const ja = (await write(t, a!.id, { notes: "first", tags: ["gap"], setup: "gap and go", rating: 5 })).journalId;
    const jb = (await write(t, b!.id, { notes: "second", tags: ["gap", "scalp"], setup: "pullback", rating: 3 })).journalId;
    const shotB = await screenshot(t.client, b!.id, [1, 2, 3]);
    expect(await (await t.client.get(`/api/journals/impact?fillId=${sellA.id}`)).json()).toEqual({ journaledTrades: 1, screenshots: 0 });

    // A's sell was a mistake: without it the two are one position.
    expect((await t.client.delete(`/api/fills/${sellA.id}`)).status).toBe(204);
    const [merged, ...rest] = await tradesOf(t);
    expect(rest).toEqual([]);
    expect(merged).toMatchObject({ id: a!.id, journalId: ja, notes: "first" });
    const [note] = await detached(t);
    expect(note).toMatchObject({ id: jb, notes: "second", images: [{ id: shotB.id }] });

    const attach = await t.client.post(`/api/journals/${jb}/attach`, { tradeId: merged!.id });
    expect(attach.status).toBe(200);
    expect(await attach.json()).toEqual({ outcome: "merged", tradeId: merged!.id, journalId: ja });
    const [after] = await tradesOf(t);
    expect(after).toMatchObject({ journalId: ja, tags: ["gap", "scalp"], setup: "gap and go", rating: 5 });
    expect(after!.notes).toBe("first\n\n— Merged from the notes of TSLA long, opened 2026-03-05 15:20 UTC —\nSetup: pullback\nRating: 3/5\nsecond");
    expect(await imagesOf(t.client, merged!.id)).toEqual([shotB.id]);
    expect(await detached(t)).toEqual([]);
    expect((await t.client.get(`/api/journals/${jb}`)).status).toBe(404);
    expect(await (await t.client.get(`/api/journals/by-trade/${b!.id}`)).json()).toMatchObject({ id: ja, tradeId: merged!.id });
  });

  it("a detached note goes by hand onto a trade without notes, and stays there through later rebuilds", async () => {
    const t = await trader();
    const gone = await addFill(t, { symbol: "AMD", side: "buy", quantity: "10", price: "150", executedAt: "2026-03-06T15:00:00Z" });
    const [trade] = await tradesOf(t);
    const { journalId } = await write(t, trade!.id, { notes: "wrong symbol typed" });
    await t.client.delete(`/api/fills/${gone.id}`);
    await addFill(t, { symbol: "AMZN", side: "buy", quantity: "10", price: "150", executedAt: "2026-03-06T15:00:00Z" });
    const [amzn] = await tradesOf(t);
    const res = await t.client.post(`/api/journals/${journalId}/attach`, { tradeId: amzn!.id });
    expect(await res.json()).toEqual({ outcome: "attached", tradeId: amzn!.id, journalId });
    await addFill(t, { symbol: "AMZN", side: "sell", quantity: "10", price: "151", executedAt: "2026-03-06T16:00:00Z" });
    expect((await tradesOf(t))[0]).toMatchObject({ id: amzn!.id, journalId, notes: "wrong symbol typed", status: "closed" });
    // Attaching it where it already is changes nothing.
    expect(await (await t.client.post(`/api/journals/${journalId}/attach`, { tradeId: amzn!.id })).json()).toMatchObject({ outcome: "same" });
  });
});

describe("journal routes: ownership and refusals", () => {
  it("another user's notes, trades and images are 404; a trade of another account is 400; deleting is the trader's", async () => {
    const owner = await trader();
    const fill = await addFill(owner, { symbol: "META", side: "buy", quantity: "1", price: "500", executedAt: "2026-03-09T15:00:00Z" });
    const [trade] = await tradesOf(owner);
    const { journalId } = await write(owner, trade!.id, { notes: "mine" });
    const shot = await screenshot(owner.client, trade!.id, [9, 9, 9]);
    await owner.client.delete(`/api/fills/${fill.id}`);

    const stranger = await trader();
    await addFill(stranger, { symbol: "META", side: "buy", quantity: "1", price: "500", executedAt: "2026-03-09T15:00:00Z" });
    const [theirs] = await tradesOf(stranger);
    for (const res of [
      await stranger.client.get(`/api/journals/${journalId}`),
      await stranger.client.get(`/api/journals/by-trade/${trade!.id}`),
      await stranger.client.get(`/api/trades/${trade!.id}`),
      await stranger.client.get(`/api/journals/${journalId}/images/${shot.id}`),
      await stranger.client.post(`/api/journals/${journalId}/attach`, { tradeId: theirs!.id }),
      await stranger.client.delete(`/api/journals/${journalId}`),
      await stranger.client.get(`/api/journals/impact?accountId=${owner.accountId}`),
    ]) {
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("NOT_FOUND");
    }
    expect(await stranger.client.get("/api/journals/detached").then((r) => r.json())).toEqual({ journals: [] });

    // The owner's second account: a note goes only on a trade of its own account.
    const second = await (await owner.client.post("/api/accounts", { name: `Other ${crypto.randomUUID()}`, currency: "USD" })).json();
    await owner.client.post("/api/fills", { accountId: second.id, symbol: "META", side: "buy", quantity: "1", price: "500", executedAt: "2026-03-09T15:00:00Z" });
    const [otherTrade] = (await (await owner.client.get(`/api/trades?accountId=${second.id}`)).json()).trades;
    const refused = await owner.client.post(`/api/journals/${journalId}/attach`, { tradeId: otherTrade.id });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.fields).toEqual([{ path: "tradeId", message: "is a trade of another account" }]);
    const bad = await owner.client.get(`/api/journals/impact?fillId=${fill.id}&importId=${fill.id}`);
    expect(bad.status).toBe(400);

    // Deleting: the note and its screenshot go, and only then.
    expect(await (await owner.client.get(`/api/journals/impact?accountId=${owner.accountId}`)).json()).toEqual({ journaledTrades: 1, screenshots: 1 });
    expect((await owner.client.delete(`/api/journals/${journalId}`)).status).toBe(204);
    expect(rowsOf(await owner.db.execute(sql`select 1 from trade_images where id = ${shot.id}::uuid`))).toEqual([]);
    expect(await detached(owner)).toEqual([]);
  });

  it("clearing every field of a journal without screenshots removes it; a write to a trade that is not the user's is 404", async () => {
    const t = await trader();
    await addFill(t, { symbol: "IBM", side: "buy", quantity: "1", price: "200", executedAt: "2026-03-10T15:00:00Z" });
    const [trade] = await tradesOf(t);
    const { journalId } = await write(t, trade!.id, { notes: "x", tags: ["y"] });
    expect(journalId).toEqual(expect.any(String));
    const cleared = await write(t, trade!.id, { notes: null, tags: [] });
    expect(cleared.journalId).toBeNull();
    expect(rowsOf(await t.db.execute(sql`select 1 from trade_journals where id = ${journalId}::uuid`))).toEqual([]);
    const other = await trader();
    expect((await other.client.request(`/api/trades/${trade!.id}`, { method: "PATCH", json: { notes: "z" } })).status).toBe(404);
  });
});

describe("concurrent fill edits on one journaled trade", () => {
  it("leave its journal on it exactly once, with every screenshot, whatever order they land in", async () => {
    const t = await trader();
    const fills = [];
    for (let i = 0; i < 6; i += 1) {
      fills.push(await addFill(t, { symbol: "QQQ", side: i < 3 ? "buy" : "sell", quantity: "10", price: "500", executedAt: `2026-03-11T15:0${i}:00Z` }));
    }
    const [trade] = await tradesOf(t);
    const { journalId } = await write(t, trade!.id, { notes: "n0" });
    const shots = [await screenshot(t.client, trade!.id, [1, 1, 1]), await screenshot(t.client, trade!.id, [2, 2, 2])];
    const answers = await Promise.all([
      ...fills.map((f, i) => t.client.request(`/api/fills/${f.id}`, { method: "PATCH", json: { price: String(500 + i), fees: "0.5" } })),
      ...fills.map((f, i) => t.client.request(`/api/fills/${f.id}`, { method: "PATCH", json: { executedAt: `2026-03-11T15:0${i}:30Z` } })),
      ...[1, 2, 3, 4].map((n) => t.client.request(`/api/trades/${trade!.id}`, { method: "PATCH", json: { notes: `n${n}` } })),
    ]);
    for (const res of answers) expect(res.status).toBe(200);
    const [after, ...rest] = await tradesOf(t);
    expect(rest).toEqual([]);
    expect(after).toMatchObject({ id: trade!.id, journalId });
    expect(["n1", "n2", "n3", "n4"]).toContain(after!.notes);
    expect(await imagesOf(t.client, trade!.id)).toEqual(shots.map((s) => s.id));
    const rows = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from trade_journals where account_id = ${t.accountId}::uuid`));
    expect(rows[0]!.n).toBe(1);
  });
});
