import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { formatDecimal } from "../../lib/money.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient, uniqueEmail } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function signUp(t: TestApp): Promise<{ client: TestClient; userId: string }> {
  const client = t.client();
  const res = await client.post("/api/auth/register", { email: uniqueEmail("ledger"), password: PASSWORD });
  return { client, userId: (await res.json()).user.id };
}

async function createAccount(t: TestApp, userId: string, startingBalance = "0"): Promise<string> {
  const rows = rowsOf<{ id: string }>(
    await t.deps.db.execute(
      sql`select id::text as id from account_create(${userId}, ${`Acct ${crypto.randomUUID()}`}, 'USD', ${startingBalance}::numeric, 'America/New_York', null, null)`,
    ),
  );
  return rows[0]!.id;
}

type Entry = { id: string; type: string; amount: string; occurredAt: string; note: string | null };
type Page = { entries: Entry[]; hasMore: boolean; page: number; pageSize: number; runningBalanceAtFirstRow: string };

async function page(client: TestClient, accountId: string, query = ""): Promise<Page> {
  const res = await client.get(`/api/ledger/${accountId}${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

/** Exact decimal arithmetic for test expectations (scaled bigint, 10 fraction digits). */
const SCALE = 10n ** 10n;
function toUnits(v: string): bigint {
  const neg = v.startsWith("-");
  const [i, f = ""] = v.replace("-", "").split(".");
  const units = BigInt(i!) * SCALE + BigInt((f + "0".repeat(10)).slice(0, 10));
  return neg ? -units : units;
}

/** Walks every page and checks DESIGN's rule: balance of row k+1 = balance of row k - amount of row k. */
async function walk(client: TestClient, accountId: string, pageSize: number) {
  const all: Entry[] = [];
  let balance: bigint | undefined;
  for (let p = 1; ; p++) {
    const body = await page(client, accountId, `?page=${p}&pageSize=${pageSize}`);
    if (body.entries.length) {
      const first = toUnits(body.runningBalanceAtFirstRow);
      if (balance !== undefined) expect(first).toBe(balance);
      balance = first;
      for (const e of body.entries) balance -= toUnits(e.amount);
    }
    all.push(...body.entries);
    if (!body.hasMore) break;
  }
  return { entries: all, balanceBeforeOldest: balance ?? 0n };
}

describe("GET /api/ledger/:accountId", () => {
  it("answers an empty page for an account without entries", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId);
    expect(await page(client, accountId)).toEqual({ entries: [], hasMore: false, page: 1, pageSize: 50, runningBalanceAtFirstRow: "0.00" });
  });

  it("lists entries newest first with the balance at the first row, exact to the cent", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId, "1000.50");
    // Later than the opening entry, which is dated at the account's creation.
    for (const json of [
      { type: "deposit", amount: "0.1", occurredAt: "2030-01-02T10:00:00Z" },
      { type: "deposit", amount: "0.2", occurredAt: "2030-01-03T10:00:00Z", note: "top-up" },
      { type: "withdrawal", amount: "+100", occurredAt: "2030-01-04T10:00:00-05:00" },
    ]) {
      expect((await client.post(`/api/ledger/${accountId}/entries`, json)).status).toBe(201);
    }
    const body = await page(client, accountId);
    expect(body.entries.map((e) => [e.type, e.amount])).toEqual([
      ["withdrawal", "-100.00"],
      ["deposit", "0.20"],
      ["deposit", "0.10"],
      ["opening", "1000.50"],
    ]);
    expect(body.entries[0]!.occurredAt).toBe("2030-01-04T15:00:00.000Z");
    expect(body.entries[1]!.note).toBe("top-up");
    expect(body.runningBalanceAtFirstRow).toBe("900.80");
    expect(body.hasMore).toBe(false);
  });

  it("gives a fill's entry its fillId and what the fill was, and a manual entry neither: the exact entry shape", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId);
    const made = await client.post("/api/fills", {
      accountId, executedAt: "2030-01-02T15:04:05.678Z", symbol: "AAPL", side: "buy", quantity: "2", price: "10.125", fees: "0.5",
    });
    expect(made.status).toBe(201);
    const fill = await made.json();
    await client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "12.3456", occurredAt: "2030-01-01T00:00:00Z", note: 'say "hi"\n\\' });
    const body = await page(client, accountId);
    expect(body.entries).toEqual([
      {
        id: expect.any(String), type: "fill", amount: "-20.75", occurredAt: "2030-01-02T15:04:05.678Z", note: null, fillId: fill.id,
        fill: { symbol: "AAPL", side: "buy", quantity: "2.00", price: "10.125" },
      },
      { id: expect.any(String), type: "deposit", amount: "12.3456", occurredAt: "2030-01-01T00:00:00.000Z", note: 'say "hi"\n\\' },
    ]);
    expect(Object.keys(body.entries[1]!)).toEqual(["id", "type", "amount", "occurredAt", "note"]);
    expect(body.runningBalanceAtFirstRow).toBe("-8.4044");
  });

  it("formats amounts in SQL (format_decimal) exactly as formatDecimal does, for any decimal", async () => {
    const t = await testApp(url());
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.nat({ max: 10 }))
      .map(([neg, units, scale]) => {
        const digits = units.toString().padStart(scale + 1, "0");
        const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
        return `${neg ? "-" : ""}${text}`;
      });
    await fc.assert(
      fc.asyncProperty(fc.array(decimal, { minLength: 1, maxLength: 200 }), async (values) => {
        const rows = rowsOf<{ v: string; f: string }>(
          await t.deps.db.execute(sql`select v, format_decimal(v::numeric) as f from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) v`),
        );
        for (const r of rows) expect(r.f, r.v).toBe(formatDecimal(r.v));
      }),
      { numRuns: 25, examples: [[["0", "-0.000", "1000.5000000000", "12.3456000000", "7", "-0.1", "00012.10"]]] },
    );
  });

  it("keeps the running balance right across pages when entries arrive out of order", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId, "10");
    const days = [5, 1, 9, 3, 7, 2, 8];
    for (const d of days) {
      await client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: `${d}.01`, occurredAt: `2026-03-0${d}T12:00:00Z` });
    }
    const { entries, balanceBeforeOldest } = await walk(client, accountId, 3);
    expect(balanceBeforeOldest).toBe(0n);
    expect(entries).toHaveLength(days.length + 1);
    const times = entries.map((e) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await page(client, accountId, "?page=2&pageSize=3");
    expect(second.hasMore).toBe(true);
    expect((await page(client, accountId, "?page=99&pageSize=3")).entries).toEqual([]);
  });

  it("deletes a manual entry and renumbers the rest; opening entries cannot be deleted", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId, "500");
    const made = await (await client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "25", occurredAt: "2020-01-01T00:00:00Z" })).json();
    await client.post(`/api/ledger/${accountId}/entries`, { type: "adjustment", amount: "-0.5" });
    expect((await client.delete(`/api/ledger/${accountId}/entries/${made.id}`)).status).toBe(204);
    const after = await walk(client, accountId, 1);
    expect(after.entries.map((e) => e.amount)).toEqual(["-0.50", "500.00"]);
    expect(after.balanceBeforeOldest).toBe(0n);
    const opening = after.entries.find((e) => e.type === "opening")!;
    expect((await client.delete(`/api/ledger/${accountId}/entries/${opening.id}`)).status).toBe(404);
  });

  it.each([
    ["a non-numeric amount", { type: "deposit", amount: "abc" }, "amount"],
    ["a zero amount", { type: "deposit", amount: "0.00" }, "amount"],
    ["a negative deposit", { type: "deposit", amount: "-5" }, "amount"],
    ["a JSON number", { type: "deposit", amount: 5 }, "amount"],
    ["an unknown type", { type: "fill", amount: "5" }, "type"],
    ["a date without offset", { type: "deposit", amount: "5", occurredAt: "2026-01-01T10:00:00" }, "occurredAt"],
    ["too many decimals", { type: "deposit", amount: "1.12345678901" }, "amount"],
  ])("refuses %s with VALIDATION_ERROR and writes nothing", async (_name, json, field) => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId);
    const res = await client.post(`/api/ledger/${accountId}/entries`, json);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.fields.map((f: { path: string }) => f.path)).toContain(field);
    expect((await page(client, accountId)).entries).toEqual([]);
  });

  it("refuses a balance beyond the column's range with 400, not 500", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId, "999999999999999999");
    const res = await client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "1" });
    expect(res.status).toBe(400);
    expect((await page(client, accountId)).entries).toHaveLength(1);
  });

  it.each([["?page=0"], ["?pageSize=201"], ["?pageSize=0"], ["?page=abc"]])("refuses the query %s with 400", async (query) => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId);
    expect((await client.get(`/api/ledger/${accountId}${query}`)).status).toBe(400);
  });

  it("answers another user's account exactly like a nonexistent one, and changes nothing", async () => {
    const t = await testApp(url());
    const alice = await signUp(t);
    const bob = await signUp(t);
    const bobs = await createAccount(t, bob.userId, "42");
    const other = await alice.client.get(`/api/ledger/${bobs}`);
    const missing = await alice.client.get(`/api/ledger/${crypto.randomUUID()}`);
    expect([other.status, missing.status]).toEqual([404, 404]);
    const strip = (b: { error: { requestId?: string } }) => ({ ...b.error, requestId: undefined });
    expect(strip(await other.json())).toEqual(strip(await missing.json()));
    expect((await alice.client.post(`/api/ledger/${bobs}/entries`, { type: "deposit", amount: "1" })).status).toBe(404);
    const [entry] = (await page(bob.client, bobs)).entries;
    expect((await alice.client.delete(`/api/ledger/${bobs}/entries/${entry!.id}`)).status).toBe(404);
    expect((await page(bob.client, bobs)).entries).toHaveLength(1);
    expect((await alice.client.get("/api/ledger/not-a-uuid")).status).toBe(400);
    expect((await t.client().get(`/api/ledger/${bobs}`)).status).toBe(401);
  });

  it("stays consistent under concurrent deposits to one account", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const accountId = await createAccount(t, userId);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post(`/api/ledger/${accountId}/entries`, { type: "deposit", amount: "1.01", occurredAt: `2026-05-01T00:00:${String(i % 3).padStart(2, "0")}Z` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const body = await page(client, accountId, "?pageSize=200");
    expect(body.runningBalanceAtFirstRow).toBe("20.20");
    const ranks = rowsOf<{ rank: string }>(
      await t.deps.db.execute(sql`select rank::text as rank from ledger_running where account_id = ${accountId} order by ledger_running.rank`),
    ).map((r) => Number(r.rank));
    expect(ranks).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe("ledger invariants (property-based)", () => {
  it("ranks follow time order and every balance is the sum of the entries before it, whatever the operations", async () => {
    const t = await testApp(url());
    const { client, userId } = await signUp(t);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("add" as const),
        type: fc.constantFrom("deposit", "withdrawal", "adjustment"),
        cents: fc.integer({ min: 1, max: 10_000_000 }),
        negative: fc.boolean(),
        day: fc.integer({ min: 1, max: 28 }),
      }),
      fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 100_000 }), async (ops, startCents) => {
        const accountId = await createAccount(t, userId, (startCents / 100).toFixed(2));
        for (const o of ops) {
          if (o.kind === "add") {
            const amount = `${o.type === "adjustment" && o.negative ? "-" : ""}${(o.cents / 100).toFixed(2)}`;
            const occurredAt = `2026-02-${String(o.day).padStart(2, "0")}T12:00:00Z`;
            expect((await client.post(`/api/ledger/${accountId}/entries`, { type: o.type, amount, occurredAt })).status).toBe(201);
          } else {
            const manual = (await page(client, accountId, "?pageSize=200")).entries.filter((e) => e.type !== "opening");
            if (manual.length) await client.delete(`/api/ledger/${accountId}/entries/${manual[o.pick % manual.length]!.id}`);
          }
        }
        const rows = rowsOf<{ rank: string; amount: string; balance_after: string }>(
          await t.deps.db.execute(sql`select rank::text as rank, amount::text as amount, balance_after::text as balance_after
            from ledger_running where account_id = ${accountId} order by occurred_at, id`),
        );
        let running = 0n;
        rows.forEach((r, i) => {
          running += toUnits(r.amount);
          expect(Number(r.rank)).toBe(i + 1);
          expect(toUnits(r.balance_after)).toBe(running);
        });
        const { balanceBeforeOldest } = await walk(client, accountId, 4);
        expect(balanceBeforeOldest).toBe(0n);
      }),
      { numRuns: 15 },
    );
  });
});
