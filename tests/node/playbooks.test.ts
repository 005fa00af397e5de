// Playbooks (docs/discipline.md): a checklist per setup, a trade taken from one answers it; the assignment
// and the answers live in the trade's journal and follow its fills through a scale-in added, a fill deleted,
// an import undone and imported again; a playbook with trades is archived, never deleted; the report's
// figures against hand-made trades. On the real Postgres.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";

const url = () => inject("databaseUrl");

async function trader(tag = "playbooks") {
  const j = await journal(url());
  const { client } = await j.signUp(tag);
  const res = await client.post("/api/accounts", { name: `Book ${crypto.randomUUID()}`, currency: "USD", startingBalance: "100000", timezone: "America/New_York" });
  expect(res.status).toBe(201);
  return { ...j, client, accountId: (await res.json()).id as string };
}
type Trader = Awaited<ReturnType<typeof trader>>;

type Item = { id: string; kind: string; label: string; options?: string[] };
type Book = { id: string; name: string; items: Item[]; archived: boolean; trades: number };

const ORB = {
  name: "Opening range breakout",
  description: "The first 5-minute range, broken on volume.",
  entryCriteria: "A close above the range high",
  exitCriteria: "Stop under the range low; half off at 2R",
  items: [
    { kind: "checkbox", label: "Volume above the 20-day average" },
    { kind: "number", label: "Range width in cents" },
    { kind: "choice", label: "Market trend", options: ["up", "flat", "down"] },
    { kind: "text", label: "What made me take it" },
  ],
};

async function createBook(client: TestClient, body: Record<string, unknown> = ORB) {
  const res = await client.post("/api/playbooks", body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Book;
}

async function addFill(t: Trader, body: Record<string, string>) {
  const res = await t.client.post("/api/fills", { accountId: t.accountId, fees: "0", ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

type Trade = { id: string; symbol: string; netPnl: string; playbookId: string | null; playbookAnswers: Record<string, unknown>; journalId: string | null };
async function tradesOf(t: Trader) {
  const res = await t.client.get(`/api/trades?accountId=${t.accountId}&pageSize=200`);
  expect(res.status).toBe(200);
  return ((await res.json()).trades as Trade[]).reverse();
}

async function patchTrade(t: Trader, tradeId: string, body: Record<string, unknown>) {
  return t.client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: body });
}

describe("playbooks", () => {
  it("are created with their checklist (ids given to items), listed, edited (items keep their ids; a kind cannot change), archived", async () => {
    const t = await trader();
    const book = await createBook(t.client);
    expect(book).toMatchObject({ name: ORB.name, entryCriteria: ORB.entryCriteria, archived: false, trades: 0 });
    expect(book.items.map((i) => [i.kind, i.label])).toEqual(ORB.items.map((i) => [i.kind, i.label]));
    expect(book.items.every((i) => /^[0-9a-f-]{36}$/.test(i.id))).toBe(true);
    expect(book.items[2]!.options).toEqual(["up", "flat", "down"]);
    expect(book.items[0]).not.toHaveProperty("options");

    // The same name in other letter case: 409.
    const dup = await t.client.post("/api/playbooks", { name: "opening RANGE breakout" });
    expect(dup.status).toBe(409);
    expect((await dup.json()).error).toMatchObject({ code: "CONFLICT", message: 'You already have a playbook named "opening RANGE breakout".' });

    const [volume, width] = book.items;
    const edited = await t.client.request(`/api/playbooks/${book.id}`, {
      method: "PATCH",
      json: { name: "ORB", items: [{ id: width!.id, kind: "number", label: "Range width (cents)" }, { id: volume!.id, kind: "checkbox", label: "Volume" }, { kind: "checkbox", label: "Above VWAP" }] },
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    const after = (await edited.json()) as Book;
    expect(after.items.map((i) => [i.id === width!.id, i.id === volume!.id, i.label])).toEqual([
      [true, false, "Range width (cents)"],
      [false, true, "Volume"],
      [false, false, "Above VWAP"],
    ]);
    const kind = await t.client.request(`/api/playbooks/${book.id}`, { method: "PATCH", json: { items: [{ id: width!.id, kind: "text", label: "Width" }] } });
    expect(kind.status).toBe(400);
    expect((await kind.json()).error.fields).toEqual([{ path: "items.0.kind", message: expect.stringContaining("cannot change") }]);
    const foreign = await t.client.request(`/api/playbooks/${book.id}`, { method: "PATCH", json: { items: [{ id: crypto.randomUUID(), kind: "text", label: "X" }] } });
    expect((await foreign.json()).error.fields).toEqual([{ path: "items.0.id", message: "is not an item of this playbook" }]);

    expect((await t.client.request(`/api/playbooks/${book.id}`, { method: "PATCH", json: { archived: true } })).status).toBe(200);
    const active = (await (await t.client.get("/api/playbooks?archived=false")).json()).playbooks as Book[];
    expect(active).toEqual([]);
    const all = (await (await t.client.get("/api/playbooks")).json()).playbooks as Book[];
    expect(all.map((b) => [b.name, b.archived])).toEqual([["ORB", true]]);
  });

  it("refuse a bad checklist with the field named, and nothing is stored", async () => {
    const t = await trader();
    for (const [items, path] of [
      [[{ kind: "choice", label: "Trend", options: ["up"] }], "items.0.options"],
      [[{ kind: "checkbox", label: "Volume", options: ["a", "b"] }], "items.0.options"],
      [[{ kind: "slider", label: "Volume" }], "items.0.kind"],
      [[{ kind: "checkbox", label: "  " }], "items.0.label"],
    ] as const) {
      const res = await t.client.post("/api/playbooks", { name: "Bad", items });
      expect(res.status).toBe(400);
      expect((await res.json()).error.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    expect((await (await t.client.get("/api/playbooks")).json()).playbooks).toEqual([]);
  });

  it("are the user's own: another user's playbook is not found, and cannot be assigned", async () => {
    const t = await trader();
    const other = await trader("playbooks-other");
    const book = await createBook(other.client);
    expect((await t.client.get(`/api/playbooks/${book.id}`)).status).toBe(404);
    expect((await t.client.request(`/api/playbooks/${book.id}`, { method: "PATCH", json: { archived: true } })).status).toBe(404);
    expect((await t.client.request(`/api/playbooks/${book.id}`, { method: "DELETE" })).status).toBe(404);
    await addFill(t, { symbol: "AAPL", side: "buy", quantity: "10", price: "100", executedAt: "2026-03-02T15:00:00Z" });
    const [trade] = await tradesOf(t);
    const res = await patchTrade(t, trade!.id, { playbookId: book.id });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual([{ path: "playbookId", message: "is not one of your playbooks" }]);
    expect((await tradesOf(t))[0]).toMatchObject({ playbookId: null, journalId: null });
  });
});

describe("a trade taken from a playbook", () => {
  it("answers its checklist: answers checked against each item's kind, merged, a null removing one", async () => {
    const t = await trader();
    const book = await createBook(t.client);
    const [volume, width, trend, why] = book.items;
    await addFill(t, { symbol: "AAPL", side: "buy", quantity: "10", price: "100", executedAt: "2026-03-02T15:00:00Z" });
    const [trade] = await tradesOf(t);

    // Answers without a playbook, and answers of the wrong kind: 400, nothing written.
    const orphan = await patchTrade(t, trade!.id, { playbookAnswers: { [volume!.id]: true } });
    expect(orphan.status).toBe(400);
    expect((await orphan.json()).error.fields).toEqual([{ path: "playbookAnswers", message: "the trade has no playbook" }]);
    const wrong = await patchTrade(t, trade!.id, { playbookId: book.id, playbookAnswers: { [volume!.id]: "yes", [width!.id]: "12", [trend!.id]: "sideways", [crypto.randomUUID()]: 1 } });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()).error.fields as Array<{ path: string }>).map((f) => f.path).sort()).toHaveLength(4);
    expect((await tradesOf(t))[0]).toMatchObject({ playbookId: null, journalId: null });

    const ok = await patchTrade(t, trade!.id, { playbookId: book.id, playbookAnswers: { [volume!.id]: true, [width!.id]: 12.5, [trend!.id]: "up" } });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect((await ok.json()).trade).toMatchObject({ playbookId: book.id, playbookAnswers: { [volume!.id]: true, [width!.id]: 12.5, [trend!.id]: "up" } });
    const merged = await patchTrade(t, trade!.id, { playbookAnswers: { [why!.id]: "Clean break", [width!.id]: null } });
    expect((await merged.json()).trade.playbookAnswers).toEqual({ [volume!.id]: true, [trend!.id]: "up", [why!.id]: "Clean break" });
    expect((await (await t.client.get(`/api/trades?playbookId=${book.id}`)).json()).trades.map((x: Trade) => x.id)).toEqual([trade!.id]);
    expect((await (await t.client.get(`/api/playbooks/${book.id}`)).json()).trades).toBe(1);
  });

  it("keeps its playbook and answers when a missed scale-in is added before it and deleted again, and through an undone import imported again", async () => {
    const t = await trader();
    const book = await createBook(t.client);
    const [volume, , trend] = book.items;
    await addFill(t, { symbol: "MSFT", side: "buy", quantity: "10", price: "400", executedAt: "2026-03-02T15:00:00Z" });
    await addFill(t, { symbol: "MSFT", side: "sell", quantity: "10", price: "410", executedAt: "2026-03-02T16:00:00Z" });
    const [trade] = await tradesOf(t);
    const answers = { [volume!.id]: true, [trend!.id]: "flat" };
    expect((await patchTrade(t, trade!.id, { playbookId: book.id, playbookAnswers: answers })).status).toBe(200);

    const missed = await addFill(t, { symbol: "MSFT", side: "buy", quantity: "5", price: "398", executedAt: "2026-03-02T14:45:00Z" });
    const sell = await addFill(t, { symbol: "MSFT", side: "sell", quantity: "5", price: "411", executedAt: "2026-03-02T16:05:00Z" });
    let [now] = await tradesOf(t);
    expect(now).toMatchObject({ playbookId: book.id, playbookAnswers: answers });
    expect((await t.client.request(`/api/fills/${missed.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await t.client.request(`/api/fills/${sell.id}`, { method: "DELETE" })).status).toBe(204);
    [now] = await tradesOf(t);
    expect(now).toMatchObject({ playbookId: book.id, playbookAnswers: answers });

    // Undo an import and import the same file again: the journal detaches and comes back with its answers.
    const form = () => {
      const f = new FormData();
      f.set("file", new Blob([GENERIC_SAMPLE]), "trades.csv");
      f.set("request", JSON.stringify({ accountId: t.accountId, presetId: "generic" }));
      return f;
    };
    const imported = async () => {
      const preview = await t.client.request("/api/csv-import/preview", { method: "POST", body: form() });
      const { importId } = await preview.json();
      expect((await t.client.post("/api/csv-import/commit", { importId })).status).toBe(200);
      return importId as string;
    };
    const importId = await imported();
    const aapl = (await tradesOf(t)).find((x) => x.symbol === "AAPL")!;
    expect((await patchTrade(t, aapl.id, { playbookId: book.id, playbookAnswers: { [volume!.id]: false } })).status).toBe(200);
    expect((await t.client.post(`/api/csv-import/${importId}/undo`)).status).toBe(200);
    const detached = (await (await t.client.get(`/api/journals/detached?accountId=${t.accountId}`)).json()).journals;
    expect(detached).toHaveLength(1);
    // Deleting the playbook now would orphan the detached note's answers: refused.
    expect((await t.client.request(`/api/playbooks/${book.id}`, { method: "DELETE" })).status).toBe(409);
    await imported();
    expect((await tradesOf(t)).find((x) => x.symbol === "AAPL")).toMatchObject({ playbookId: book.id, playbookAnswers: { [volume!.id]: false } });
  });

  it("a playbook no trade uses is deleted; one that trades use is refused (409) and kept", async () => {
    const t = await trader();
    const unused = await createBook(t.client, { name: "Unused" });
    expect((await t.client.request(`/api/playbooks/${unused.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await t.client.get(`/api/playbooks/${unused.id}`)).status).toBe(404);
    const used = await createBook(t.client);
    await addFill(t, { symbol: "AAPL", side: "buy", quantity: "10", price: "100", executedAt: "2026-03-02T15:00:00Z" });
    const [trade] = await tradesOf(t);
    expect((await patchTrade(t, trade!.id, { playbookId: used.id })).status).toBe(200);
    const res = await t.client.request(`/api/playbooks/${used.id}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toContain("archive it instead");
    expect((await t.client.get(`/api/playbooks/${used.id}`)).status).toBe(200);
    // Taken off the playbook (the journal would be blank): the playbook can go.
    expect((await patchTrade(t, trade!.id, { playbookId: null })).status).toBe(200);
    expect((await t.client.request(`/api/playbooks/${used.id}`, { method: "DELETE" })).status).toBe(204);
  });
});

describe("GET /api/stats/playbooks", () => {
  it("per playbook and per item: trades, net P&L, win rate, expectancy in money and R; trades without a playbook apart", async () => {
    const t = await trader();
    const orb = await createBook(t.client);
    const fade = await createBook(t.client, { name: "Fade", items: [{ kind: "checkbox", label: "At a level" }] });
    const [volume] = orb.items;
    // Four closed round trips (fees 1 a side): +98, -52, +28 on ORB; -12 on Fade; +8 with no playbook.
    const trips: Array<[string, string, string]> = [
      ["100", "110", "2026-03-02"],
      ["100", "95", "2026-03-03"],
      ["100", "103", "2026-03-04"],
      ["100", "99", "2026-03-05"],
      ["100", "101", "2026-03-06"],
    ];
    for (const [buy, sell, day] of trips) {
      await addFill(t, { symbol: "AAPL", side: "buy", quantity: "10", price: buy, fees: "1", executedAt: `${day}T15:00:00Z` });
      await addFill(t, { symbol: "AAPL", side: "sell", quantity: "10", price: sell, fees: "1", executedAt: `${day}T16:00:00Z` });
    }
    const trades = await tradesOf(t);
    expect(trades.map((x) => x.netPnl)).toEqual(["98.00", "-52.00", "28.00", "-12.00", "8.00"]);
    // R: a stop 5 under the entry on the first two (1R = 50), none on the third.
    await patchTrade(t, trades[0]!.id, { playbookId: orb.id, stopPrice: "95", playbookAnswers: { [volume!.id]: true } });
    await patchTrade(t, trades[1]!.id, { playbookId: orb.id, stopPrice: "95", playbookAnswers: { [volume!.id]: false } });
    await patchTrade(t, trades[2]!.id, { playbookId: orb.id, playbookAnswers: { [volume!.id]: true } });
    await patchTrade(t, trades[3]!.id, { playbookId: fade.id });

    const res = await t.client.get(`/api/stats/playbooks?accountId=${t.accountId}`);
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(report.currency).toBe("USD");
    expect(report.playbooks.map((b: Book) => b.name)).toEqual([ORB.name, "Fade"]);
    const [o, f] = report.playbooks;
    expect(o).toMatchObject({ trades: 3, netPnl: "74.00", winRate: "0.6667", expectancy: "24.6666666667", withRisk: 2, expectancyR: "0.46" });
    expect(o.items[0]).toMatchObject({
      label: "Volume above the 20-day average",
      followed: { trades: 2, netPnl: "126.00", winRate: "1.0000", expectancy: "63.00", withRisk: 1, expectancyR: "1.96" },
      broken: { trades: 1, netPnl: "-52.00", winRate: "0.0000", withRisk: 1, expectancyR: "-1.04" },
    });
    // The number item answered by none: all three broken (unanswered).
    expect(o.items[1]).toMatchObject({ followed: { trades: 0, netPnl: "0.00", winRate: null, expectancy: null }, broken: { trades: 3 } });
    expect(f).toMatchObject({ trades: 1, netPnl: "-12.00", winRate: "0.0000", items: [{ followed: { trades: 0 }, broken: { trades: 1 } }] });
    expect(report.none).toMatchObject({ trades: 1, netPnl: "8.00", winRate: "1.0000" });

    // The period: only the first two days.
    const early = await (await t.client.get(`/api/stats/playbooks?accountId=${t.accountId}&from=2026-03-02T00:00:00Z&to=2026-03-04T00:00:00Z`)).json();
    expect(early.playbooks[0]).toMatchObject({ name: ORB.name, trades: 2, netPnl: "46.00" });
    expect(early.none.trades).toBe(0);
  });
});
