// Input that passes a naive check but that Postgres cannot store, kept as regression cases (issue 21's defects):
// NUL characters and lone UTF-16 surrogates in any text (400 VALIDATION_ERROR, checked once for every request
// value), date-times outside 1900-01-01..9999-12-31 UTC (400, and a row error in a CSV preview), JSON in
// another charset than UTF-8 (415), and a commit whose write fails: its claim given back at once, the import
// still staged, a clear error; and a trade PATCH answering from its own write. Each refusal leaves the database as it was.
import { eq, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { csvImports } from "../../lib/db/schema.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_HEADER } from "../support/csv.ts";

const url = () => inject("databaseUrl");

async function trader() {
  const j = await journal(url());
  const { client, userId } = await j.signUp("unstorable");
  const res = await client.post("/api/accounts", { name: `Main ${crypto.randomUUID()}`, currency: "USD", startingBalance: "1000", timezone: "America/New_York" });
  expect(res.status).toBe(201);
  const accountId = (await res.json()).id as string;
  const fill = await client.post("/api/fills", { accountId, symbol: "AAPL", side: "buy", quantity: "1", price: "10", executedAt: "2024-01-02T14:30:00Z" });
  expect(fill.status).toBe(201);
  const [trade] = (await (await client.get(`/api/trades?accountId=${accountId}`)).json()).trades as Array<{ id: string }>;
  return { ...j, client, userId, accountId, tradeId: trade!.id };
}

/** Rows the user owns across the tables a refused request could have touched. */
async function snapshot(t: Awaited<ReturnType<typeof trader>>) {
  const [row] = rowsOf<{ state: string }>(
    await t.db.execute(sql`select concat_ws('|',
      (select count(*) from accounts where user_id = ${t.userId}),
      (select count(*) from fills f join accounts a on a.id = f.account_id where a.user_id = ${t.userId}),
      (select count(*) from ledger_entries l join accounts a on a.id = l.account_id where a.user_id = ${t.userId}),
      (select string_agg(coalesce(notes, '') || coalesce(array_to_string(tags, ','), ''), ';') from trade_journals j join accounts a on a.id = j.account_id where a.user_id = ${t.userId}),
      (select count(*) from csv_imports where user_id = ${t.userId})) as state`),
  );
  return row!.state;
}

async function expectRefused(res: Response, status: number, code: string, path?: string) {
  const body = (await res.json()) as { error: { code: string; message: string; fields?: Array<{ path: string; message: string }> } };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  if (path) expect(body.error.fields?.map((f) => f.path)).toContain(path);
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|node_modules|select |insert /i);
  return body;
}

function upload(client: TestClient, csv: string, accountId: string) {
  const form = new FormData();
  form.set("file", new Blob([csv]), "trades.csv");
  form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
  return client.request("/api/csv-import/preview", { method: "POST", body: form });
}

describe("text Postgres cannot store", () => {
  it("a NUL character or a lone surrogate anywhere is 400 VALIDATION_ERROR naming the field, and nothing changes", async () => {
    const t = await trader();
    const before = await snapshot(t);
    const { client, accountId, tradeId } = t;
    const cases: Array<[string, () => Promise<Response>, string]> = [
      ["account name", () => client.post("/api/accounts", { name: "Main\u0000", currency: "USD" }), "name"],
      ["brokerage name", () => client.post("/api/brokerages", { name: "Broker\u0000" }), "name"],
      ["ledger note", () => client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "10", note: "cash\u0000" }), "note"],
      ["execution id", () => client.post("/api/fills", { accountId, symbol: "AAPL", side: "sell", quantity: "1", price: "11", executedAt: "2024-01-03T14:30:00Z", executionId: "E\u0000" }), "executionId"],
      ["trade notes", () => client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { notes: "revenge\u0000" } }), "notes"],
      ["trade setup", () => client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { setup: "\u0000" } }), "setup"],
      ["a tag", () => client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { tags: ["ok", "x\u0000"] } }), "tags.1"],
      ["a tag with a lone surrogate", () => client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { tags: ["x\ud800"] } }), "tags.0"],
      ["notes with a lone low surrogate", () => client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { notes: "\udc00 oops" } }), "notes"],
      ["a field name", () => client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { ["no\u0000te"]: "x" } }), "no\u0000te"],
      ["the tag filter", () => client.get("/api/trades?tag=%00"), "tag"],
      ["the symbol filter", () => client.get("/api/trades?symbol=A%00"), "symbol"],
    ];
    for (const [what, send, path] of cases) {
      const body = await expectRefused(await send(), 400, "VALIDATION_ERROR", path);
      expect(body.error.fields!.find((f) => f.path === path)!.message, what).toMatch(/NUL character|lone UTF-16 surrogate/);
    }
    // A name of only invisible characters is empty.
    await expectRefused(await client.post("/api/accounts", { name: "\u200B\u200D", currency: "USD" }), 400, "VALIDATION_ERROR", "name");
    // A pasted emoji (a well-formed surrogate pair) is still fine.
    expect((await client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { tags: ["🚀"] } })).status).toBe(200);
    await client.request(`/api/trades/${tradeId}`, { method: "PATCH", json: { tags: [] } });
    expect(await snapshot(t)).toBe(before);
  });

  it("a CSV file with NUL characters (a UTF-16 export) is refused before anything is staged", async () => {
    const t = await trader();
    const res = await upload(t.client, `${GENERIC_HEADER}\n2024-01-02T14:30:00Z,AA\u0000PL,BUY,1,10,0,a1\n`, t.accountId);
    const body = await expectRefused(res, 400, "VALIDATION_ERROR", "file");
    expect(body.error.message).toMatch(/NUL characters/);
    expect((await t.db.select().from(csvImports).where(eq(csvImports.accountId, t.accountId))).length).toBe(0);
  });

  it("JSON nested deeper than 32 levels is 400, however deep (a recursive check once overflowed at 3,000)", async () => {
    const t = await trader();
    for (const depth of [33, 3000, 100_000]) {
      const res = await t.client.request("/api/accounts", { method: "POST", body: "[".repeat(depth) + "]".repeat(depth), headers: { "Content-Type": "application/json" } });
      const body = await expectRefused(res, 400, "VALIDATION_ERROR");
      expect(body.error.fields?.[0]?.message).toMatch(/nested more than 32 levels deep/);
    }
  });

  it("JSON in another charset than UTF-8 is 415", async () => {
    const t = await trader();
    const res = await t.client.request("/api/accounts", {
      method: "POST",
      body: JSON.stringify({ name: "Other", currency: "USD" }),
      headers: { "Content-Type": "application/json; charset=utf-16" },
    });
    await expectRefused(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    const ok = await t.client.request("/api/accounts", { method: "POST", body: JSON.stringify({ name: "Other", currency: "USD" }), headers: { "Content-Type": "application/json; charset=UTF-8" } });
    expect(ok.status).toBe(201);
  });
});

describe("date-times outside 1900-01-01..9999-12-31 UTC", () => {
  const OUTSIDE = ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "1899-12-31T23:59:59Z"];

  it("are 400 on every date field, and nothing changes", async () => {
    const t = await trader();
    const before = await snapshot(t);
    const { client, accountId } = t;
    const fillId = ((await (await client.get(`/api/fills?accountId=${accountId}`)).json()).fills as Array<{ id: string }>)[0]!.id;
    for (const when of OUTSIDE) {
      const q = encodeURIComponent(when);
      await expectRefused(await client.post("/api/fills", { accountId, symbol: "AAPL", side: "sell", quantity: "1", price: "11", executedAt: when }), 400, "VALIDATION_ERROR", "executedAt");
      await expectRefused(await client.request(`/api/fills/${fillId}`, { method: "PATCH", json: { executedAt: when } }), 400, "VALIDATION_ERROR", "executedAt");
      await expectRefused(await client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "10", occurredAt: when }), 400, "VALIDATION_ERROR", "occurredAt");
      await expectRefused(await client.post("/api/accounts", { name: `Old ${when}`, currency: "USD", startingBalanceAt: when }), 400, "VALIDATION_ERROR", "startingBalanceAt");
      await expectRefused(await client.get(`/api/trades?from=${q}`), 400, "VALIDATION_ERROR", "from");
      await expectRefused(await client.get(`/api/stats/summary?to=${q}`), 400, "VALIDATION_ERROR", "to");
    }
    // The edges themselves are fine.
    expect((await client.get(`/api/trades?from=${encodeURIComponent("1900-01-01T00:00:00Z")}&to=${encodeURIComponent("9999-12-31T23:59:59Z")}`)).status).toBe(200);
    expect(await snapshot(t)).toBe(before);
  });

  it("in a CSV row are that row's error in the preview; the rest commits", async () => {
    const t = await trader();
    const csv = [GENERIC_HEADER, "2024-01-02T14:30:00Z,AAPL,BUY,1,10,0,a1", "9999-12-31T23:59:59-14:00,AAPL,SELL,1,10,0,a3"].join("\n");
    const res = await upload(t.client, csv, t.accountId);
    expect(res.status, await res.clone().text()).toBe(201);
    const preview = (await res.json()) as { importId: string; errors: Array<{ row: number; message: string }> };
    expect(preview.errors).toEqual([expect.objectContaining({ row: 3, message: expect.stringContaining("must be between 1900-01-01 and 9999-12-31 (UTC)") })]);
    const committed = await t.client.post("/api/csv-import/commit", { importId: preview.importId });
    expect(committed.status, await committed.clone().text()).toBe(200);
    expect((await committed.json()).status).toBe("committed");
  });
});

describe("a commit whose write fails", () => {
  it("gives its claim back at once with a clear error: the import stays staged and can be discarded", async () => {
    const t = await trader();
    const csv = [GENERIC_HEADER, "2024-01-02T14:30:00Z,AAPL,BUY,1,11,0,a1"].join("\n");
    const { importId } = (await (await upload(t.client, csv, t.accountId)).json()) as { importId: string };
    // A staged value the database cannot store (as an older release's preview let through).
    await t.db.execute(sql`update csv_import_parts set fills = jsonb_set(fills, '{0,7}', '"+010000-01-01T13:59:59.000Z"') where import_id = ${importId}`);
    const before = await snapshot(t);
    const res = await t.client.post("/api/csv-import/commit", { importId });
    const body = await expectRefused(res, 400, "VALIDATION_ERROR", "file");
    expect(body.error.message).toMatch(/nothing was written/);
    const [row] = await t.db.select().from(csvImports).where(eq(csvImports.id, importId));
    expect(row!.status).toBe("staged");
    expect(await snapshot(t)).toBe(before);
    expect((await t.client.delete(`/api/csv-import/${importId}`)).status).toBe(204);
  });
});

describe("concurrent journal edits of one trade", () => {
  it("each PATCH answers with its own write, never another writer's (30 at once)", async () => {
    const t = await trader();
    const notes = Array.from({ length: 30 }, (_, i) => `note ${i}`);
    const answers = await Promise.all(notes.map((n) => t.client.request(`/api/trades/${t.tradeId}`, { method: "PATCH", json: { notes: n } }).then((r) => r.json())));
    expect(answers.map((a: { trade: { notes: string } }) => a.trade.notes)).toEqual(notes);
    expect(answers[0].fills).toHaveLength(1);
  });
});
