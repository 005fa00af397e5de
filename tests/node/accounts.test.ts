import { asc, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { accounts, ledgerEntries, users } from "../../lib/db/schema.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");


const patch = (client: TestClient, path: string, json: unknown) => client.request(path, { method: "PATCH", json });

/** Asserts the status and the error envelope, and returns the error. */
async function errorOf(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string; requestId: string; fields?: { path: string; message: string }[] } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.requestId).toBe(res.headers.get("X-Request-Id"));
  return body.error;
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function accountsOf(db: Awaited<ReturnType<typeof journal>>["db"], userId: string) {
  return db.select().from(accounts).where(eq(accounts.userId, userId)).orderBy(asc(accounts.createdAt));
}

async function entriesOf(db: Awaited<ReturnType<typeof journal>>["db"], accountId: string) {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId)).orderBy(asc(ledgerEntries.occurredAt), asc(ledgerEntries.id));
}

async function createOk(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post("/api/accounts", body);
  expect(res.status).toBe(201);
  return (await res.json()) as Record<string, string | null>;
}

describe("POST /api/accounts", () => {
  it("creates the account: 201 with its fields, defaults, uppercased currency and trimmed name", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const res = await client.post("/api/accounts", { name: "  Main  ", currency: "usd" });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      name: "Main",
      currency: "USD",
      startingBalance: "0.00",
      startingBalanceAt: null,
      timezone: "America/New_York",
      brokerageId: null,
      createdAt: expect.stringMatching(ISO_UTC),
      balance: "0.00",
      defaultRisk: null,
      feeSchedule: null,
      taxStatus: "taxable",
    });
    const rows = await accountsOf(t.db, userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: body.id, name: "Main", currency: "USD", timezone: "America/New_York", brokerageId: null });
    expect(rows[0]!.createdAt.toISOString()).toBe(body.createdAt);
    // A zero starting balance writes no opening entry.
    expect(await entriesOf(t.db, body.id)).toEqual([]);
  });

  it("accepts Etc/UTC and other canonical zones", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    expect((await createOk(client, { name: "UTC book", currency: "EUR", timezone: "Etc/UTC" })).timezone).toBe("Etc/UTC");
    expect((await createOk(client, { name: "Tokyo", currency: "JPY", timezone: "Asia/Tokyo" })).timezone).toBe("Asia/Tokyo");
  });

  it.each(["US/Eastern", "utc", "UTC", "Nope/Zone", "america/new_york", ""])(
    "refuses the time zone %j with 400 INVALID_TIMEZONE and writes nothing",
    async (timezone) => {
      const t = await journal(url());
      const { client, userId } = await t.signUp();
      const error = await errorOf(await client.post("/api/accounts", { name: "Main", currency: "USD", timezone }), 400, "INVALID_TIMEZONE");
      // `fields` belongs to VALIDATION_ERROR only (DESIGN.md section 3).
      expect(error).toEqual({ code: "INVALID_TIMEZONE", message: expect.stringContaining("time zone"), requestId: expect.any(String) });
      expect(await accountsOf(t.db, userId)).toEqual([]);
    },
  );

  it("names the canonical zone when a link is given", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const error = await errorOf(await client.post("/api/accounts", { name: "Main", currency: "USD", timezone: "US/Eastern" }), 400, "INVALID_TIMEZONE");
    expect(error.message).toContain("America/New_York");
  });

  it("refuses a duplicate name in any case with 409 CONFLICT and keeps one row", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    await createOk(client, { name: "Swing", currency: "USD" });
    for (const name of ["Swing", "SWING", " swing "]) {
      const error = await errorOf(await client.post("/api/accounts", { name, currency: "EUR" }), 409, "CONFLICT");
      expect(error).toEqual({ code: "CONFLICT", message: expect.stringContaining("name"), requestId: expect.any(String) });
    }
    const rows = await accountsOf(t.db, userId);
    expect(rows.map((r) => r.name)).toEqual(["Swing"]);
  });

  it("lets two users use the same name", async () => {
    const t = await journal(url());
    const a = await t.signUp();
    const b = await t.signUp();
    await createOk(a.client, { name: "Main", currency: "USD" });
    await createOk(b.client, { name: "Main", currency: "USD" });
  });

  it.each([
    ["no currency", { name: "Main" }, ["currency"]],
    ["no name", { currency: "USD" }, ["name"]],
    ["neither", {}, ["name", "currency"]],
    ["an empty name", { name: "   ", currency: "USD" }, ["name"]],
    ["a 101-character name", { name: "x".repeat(101), currency: "USD" }, ["name"]],
    ["a two-letter currency", { name: "Main", currency: "US" }, ["currency"]],
    ["a four-letter currency", { name: "Main", currency: "USDT" }, ["currency"]],
    ["a currency with digits", { name: "Main", currency: "U5D" }, ["currency"]],
    ["a numeric currency", { name: "Main", currency: 840 }, ["currency"]],
    ["a timezone that is not a string", { name: "Main", currency: "USD", timezone: 5 }, ["timezone"]],
    ["a brokerageId that is not a uuid", { name: "Main", currency: "USD", brokerageId: "abc" }, ["brokerageId"]],
  ])("refuses %s with 400 VALIDATION_ERROR naming the fields", async (_name, body, paths) => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const error = await errorOf(await client.post("/api/accounts", body), 400, "VALIDATION_ERROR");
    expect(error.fields!.map((f) => f.path).sort()).toEqual([...paths].sort());
    expect(await accountsOf(t.db, userId)).toEqual([]);
  });

  it("accepts a 100-character name exactly", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    expect((await createOk(client, { name: "n".repeat(100), currency: "USD" })).name).toBe("n".repeat(100));
  });

  it('writes an opening ledger entry for startingBalance "1000.50" and reports the balance', async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const body = await createOk(client, { name: "Funded", currency: "USD", startingBalance: "1000.50" });
    expect(body.startingBalance).toBe("1000.50");
    expect(body.startingBalanceAt).toBe(body.createdAt);
    expect(body.balance).toBe("1000.50");
    const entries = await entriesOf(t.db, body.id!);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: "opening", amount: "1000.5000000000", dayRank: 1, dayBalance: "1000.5000000000" });
    expect(entries[0]!.occurredAt.toISOString()).toBe(body.createdAt);
    const got = await (await client.get(`/api/accounts/${body.id}`)).json();
    expect(got).toEqual(body);
  });

  it.each([
    ["12.3456", "12.3456"],
    ["0.1", "0.10"],
    ["-250", "-250.00"],
    ["+5.5", "5.50"],
    ["000123.4500", "123.45"],
    ["0.0000000001", "0.0000000001"],
    ["999999999999999999.9999999999", "999999999999999999.9999999999"],
  ])("keeps startingBalance %j exact (%j)", async (startingBalance, shown) => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const body = await createOk(client, { name: "Exact", currency: "USD", startingBalance });
    expect(body.startingBalance).toBe(shown);
    expect(body.balance).toBe(shown);
  });

  it('writes no opening entry for startingBalance "0.00"', async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const body = await createOk(client, { name: "Empty", currency: "USD", startingBalance: "0.00" });
    expect(await entriesOf(t.db, body.id!)).toEqual([]);
  });

  it.each([
    ["abc", "abc"],
    ["a JSON number", 1000],
    ["an exponent", "1e3"],
    ["a thousands separator", "1,000.00"],
    ["spaces", " 1000"],
    ["a trailing point", "1000."],
    ["a leading point", ".5"],
    ["19 integer digits", "1234567890123456789"],
    ["11 fraction digits", "1.12345678901"],
    ["null", null],
  ])("refuses startingBalance as %s with 400 VALIDATION_ERROR", async (_name, startingBalance) => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const error = await errorOf(await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance }), 400, "VALIDATION_ERROR");
    expect(error.fields!.map((f) => f.path)).toContain("startingBalance");
    expect(await accountsOf(t.db, userId)).toEqual([]);
  });

  it("links the user's own brokerage", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const brokerage = await (await client.post("/api/brokerages", { name: "IBKR" })).json();
    const body = await createOk(client, { name: "Main", currency: "USD", brokerageId: brokerage.id });
    expect(body.brokerageId).toBe(brokerage.id);
    expect((await createOk(client, { name: "Other", currency: "USD", brokerageId: null })).brokerageId).toBeNull();
  });

  it("refuses another user's brokerage and an unknown one alike with 403 FORBIDDEN, writing nothing", async () => {
    const t = await journal(url());
    const owner = await t.signUp();
    const brokerage = await (await owner.client.post("/api/brokerages", { name: "Theirs" })).json();
    const { client, userId } = await t.signUp();
    const foreign = await errorOf(
      await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "50", brokerageId: brokerage.id }),
      403,
      "FORBIDDEN",
    );
    const unknown = await errorOf(
      await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "50", brokerageId: crypto.randomUUID() }),
      403,
      "FORBIDDEN",
    );
    expect({ ...foreign, requestId: "" }).toEqual({ ...unknown, requestId: "" });
    expect(await accountsOf(t.db, userId)).toEqual([]);
  });

  it("is 401 without a session on every route, and 404 for an unknown path", async () => {
    const t = await journal(url());
    const anonymous = t.anonymous();
    const id = crypto.randomUUID();
    await errorOf(await anonymous.post("/api/accounts", { name: "Main", currency: "USD" }), 401, "UNAUTHORIZED");
    await errorOf(await anonymous.get("/api/accounts"), 401, "UNAUTHORIZED");
    await errorOf(await anonymous.get(`/api/accounts/${id}`), 401, "UNAUTHORIZED");
    await errorOf(await patch(anonymous, `/api/accounts/${id}`, { name: "x" }), 401, "UNAUTHORIZED");
    await errorOf(await anonymous.delete(`/api/accounts/${id}`), 401, "UNAUTHORIZED");
    await errorOf(await anonymous.get(`/api/accounts/${id}/nothing`), 404, "NOT_FOUND");
  });
});

describe("the Free-plan cap (FEATURE_GATING)", () => {
  it("refuses a Free user's second account with 403 TIER_LIMIT_ACCOUNTS", async () => {
    const t = await journal(url(), { FEATURE_GATING: "true" });
    const { client, userId } = await t.signUp();
    await createOk(client, { name: "First", currency: "USD" });
    await errorOf(await client.post("/api/accounts", { name: "Second", currency: "USD", startingBalance: "10" }), 403, "TIER_LIMIT_ACCOUNTS");
    expect((await accountsOf(t.db, userId)).map((a) => a.name)).toEqual(["First"]);
  });

  it("frees the slot again when the account is deleted", async () => {
    const t = await journal(url(), { FEATURE_GATING: "true" });
    const { client } = await t.signUp();
    const first = await createOk(client, { name: "First", currency: "USD" });
    expect((await client.delete(`/api/accounts/${first.id}`)).status).toBe(204);
    await createOk(client, { name: "Second", currency: "USD" });
  });

  it("does not cap an admin", async () => {
    const t = await journal(url(), { FEATURE_GATING: "true" });
    const { client, userId } = await t.signUp();
    await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, userId));
    for (const name of ["A", "B", "C"]) await createOk(client, { name, currency: "USD" });
    expect(await accountsOf(t.db, userId)).toHaveLength(3);
  });

  it("does not cap a Pro user", async () => {
    const t = await journal(url(), { FEATURE_GATING: "true" });
    const { client, userId } = await t.signUp();
    await t.db.update(users).set({ plan: "pro" }).where(eq(users.id, userId));
    for (const name of ["A", "B", "C"]) await createOk(client, { name, currency: "USD" });
    expect(await accountsOf(t.db, userId)).toHaveLength(3);
  });

  it("caps nobody with gating off", async () => {
    for (const env of [{}, { FEATURE_GATING: "false" }] as Record<string, string>[]) {
      const t = await journal(url(), env);
      const { client, userId } = await t.signUp();
      for (const name of ["A", "B", "C"]) await createOk(client, { name, currency: "USD" });
      expect(await accountsOf(t.db, userId)).toHaveLength(3);
    }
  });

  it("lets exactly one of 10 concurrent creates through at the cap", async () => {
    const t = await journal(url(), { FEATURE_GATING: "true" });
    const { client, userId } = await t.signUp();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.post("/api/accounts", { name: `Race ${i}`, currency: "USD", startingBalance: "1" })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(403)]);
    for (const res of responses.filter((r) => r.status === 403)) expect((await res.json()).error.code).toBe("TIER_LIMIT_ACCOUNTS");
    const rows = await accountsOf(t.db, userId);
    expect(rows).toHaveLength(1);
    expect(await entriesOf(t.db, rows[0]!.id)).toHaveLength(1);
  });

  it("lets exactly one of 10 concurrent creates with the same name through", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => client.post("/api/accounts", { name: "Same", currency: "USD" })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await accountsOf(t.db, userId)).toHaveLength(1);
  });
});

describe("GET /api/accounts", () => {
  it("lists only the user's accounts, oldest first, with their current balance", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const other = await t.signUp();
    await createOk(other.client, { name: "Not mine", currency: "USD" });
    const first = await createOk(client, { name: "b-first", currency: "USD", startingBalance: "100" });
    const second = await createOk(client, { name: "A-second", currency: "EUR" });
    await t.db.execute(sql`select * from ledger_add(${userId}::uuid, ${first.id}::uuid, 'deposit', 25.25::numeric, now(), null, null)`);
    const res = await client.get("/api/accounts");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ accounts: [{ ...first, balance: "125.25" }, second] });
  });

  it("is an empty list for a new user", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    expect(await (await client.get("/api/accounts")).json()).toEqual({ accounts: [] });
  });
});

describe("GET /api/accounts/:id", () => {
  it("returns the account with the balance after the newest entry", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD", startingBalance: "1000" });
    await t.db.execute(sql`select * from ledger_add(${userId}::uuid, ${account.id}::uuid, 'withdrawal', -1000.125::numeric, now(), null, null)`);
    const res = await client.get(`/api/accounts/${account.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...account, startingBalance: "1000.00", balance: "-0.125" });
  });

  it("answers 404 NOT_FOUND for an unknown id and 400 for a malformed one", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    await errorOf(await client.get(`/api/accounts/${crypto.randomUUID()}`), 404, "NOT_FOUND");
    const error = await errorOf(await client.get("/api/accounts/not-a-uuid"), 400, "VALIDATION_ERROR");
    expect(error.fields).toEqual([{ path: "id", message: expect.any(String) }]);
  });
});

describe("PATCH /api/accounts/:id", () => {
  it("renames (trimmed), moves the time zone and sets and clears the brokerage", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD", startingBalance: "10" });
    const brokerage = await (await client.post("/api/brokerages", { name: "Broker" })).json();

    let res = await patch(client, `/api/accounts/${account.id}`, { name: " Renamed ", timezone: "Europe/London", brokerageId: brokerage.id });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...account, name: "Renamed", timezone: "Europe/London", brokerageId: brokerage.id });

    res = await patch(client, `/api/accounts/${account.id}`, { brokerageId: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...account, name: "Renamed", timezone: "Europe/London", brokerageId: null });
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, account.id!));
    expect(row).toMatchObject({ name: "Renamed", timezone: "Europe/London", brokerageId: null, startingBalance: "10.0000000000" });
  });

  it("allows changing only the case of the account's own name", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "main", currency: "USD" });
    const res = await patch(client, `/api/accounts/${account.id}`, { name: "MAIN" });
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe("MAIN");
  });

  it("answers an empty patch with the unchanged account", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD" });
    const res = await patch(client, `/api/accounts/${account.id}`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(account);
  });

  it("refuses a name another of the user's accounts has, in any case, with 409", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    await createOk(client, { name: "Taken", currency: "USD" });
    const account = await createOk(client, { name: "Mine", currency: "USD" });
    await errorOf(await patch(client, `/api/accounts/${account.id}`, { name: "tAKEN" }), 409, "CONFLICT");
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, account.id!));
    expect(row!.name).toBe("Mine");
  });

  it("refuses a non-canonical time zone with 400 INVALID_TIMEZONE", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD" });
    const error = await errorOf(await patch(client, `/api/accounts/${account.id}`, { timezone: "US/Eastern", name: "New" }), 400, "INVALID_TIMEZONE");
    expect(error.fields).toBeUndefined();
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, account.id!));
    expect(row).toMatchObject({ name: "Main", timezone: "America/New_York" });
  });

  it.each([
    ["startingBalance", { startingBalance: "5000" }],
    ["currency", { currency: "EUR" }],
  ])("refuses a change of %s with 400 VALIDATION_ERROR pointing to an adjustment entry", async (field, body) => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD", startingBalance: "100" });
    const error = await errorOf(await patch(client, `/api/accounts/${account.id}`, { ...body, name: "Changed" }), 400, "VALIDATION_ERROR");
    expect(error.fields).toEqual([{ path: field, message: expect.stringContaining("adjustment") }]);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, account.id!));
    expect(row).toMatchObject({ name: "Main", currency: "USD", startingBalance: "100.0000000000" });
  });

  it("refuses unknown fields rather than ignoring them", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD" });
    const error = await errorOf(await patch(client, `/api/accounts/${account.id}`, { nmae: "typo" }), 400, "VALIDATION_ERROR");
    expect(error.fields![0]!.message).toContain("nmae");
  });

  it("refuses another user's or an unknown brokerage with 403 FORBIDDEN and changes nothing", async () => {
    const t = await journal(url());
    const owner = await t.signUp();
    const theirs = await (await owner.client.post("/api/brokerages", { name: "Theirs" })).json();
    const { client } = await t.signUp();
    const mine = await (await client.post("/api/brokerages", { name: "Mine" })).json();
    const account = await createOk(client, { name: "Main", currency: "USD", brokerageId: mine.id });
    for (const brokerageId of [theirs.id, crypto.randomUUID()]) {
      await errorOf(await patch(client, `/api/accounts/${account.id}`, { brokerageId, name: "Changed" }), 403, "FORBIDDEN");
    }
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, account.id!));
    expect(row).toMatchObject({ name: "Main", brokerageId: mine.id });
  });

  it("answers 404 for an unknown account, even with a foreign brokerage", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    await errorOf(await patch(client, `/api/accounts/${crypto.randomUUID()}`, { name: "x", brokerageId: crypto.randomUUID() }), 404, "NOT_FOUND");
  });
});

describe("DELETE /api/accounts/:id", () => {
  it("deletes an account without history (its opening entry goes with it): 204", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD", startingBalance: "500" });
    const res = await client.delete(`/api/accounts/${account.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await t.db.select().from(accounts).where(eq(accounts.id, account.id!))).toEqual([]);
    expect(await entriesOf(t.db, account.id!)).toEqual([]);
    await errorOf(await client.get(`/api/accounts/${account.id}`), 404, "NOT_FOUND");
  });

  it("refuses an account with history with 409 until ?confirm=delete-history, then deletes it all", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD", startingBalance: "500" });
    const keep = await createOk(client, { name: "Keep", currency: "USD", startingBalance: "1" });
    await t.db.execute(sql`select * from ledger_add(${userId}::uuid, ${account.id}::uuid, 'deposit', 100::numeric, now(), null, null)`);

    const error = await errorOf(await client.delete(`/api/accounts/${account.id}`), 409, "CONFLICT");
    expect(error.message).toContain("confirm=delete-history");
    expect(await t.db.select().from(accounts).where(eq(accounts.id, account.id!))).toHaveLength(1);
    expect(await entriesOf(t.db, account.id!)).toHaveLength(2);

    await errorOf(await client.delete(`/api/accounts/${account.id}?confirm=yes`), 400, "VALIDATION_ERROR");
    expect(await entriesOf(t.db, account.id!)).toHaveLength(2);

    expect((await client.delete(`/api/accounts/${account.id}?confirm=delete-history`)).status).toBe(204);
    expect(await t.db.select().from(accounts).where(eq(accounts.id, account.id!))).toEqual([]);
    expect(await t.db.select().from(ledgerEntries).where(inArray(ledgerEntries.accountId, [account.id!]))).toEqual([]);
    // Only that account went.
    expect(await entriesOf(t.db, keep.id!)).toHaveLength(1);
  });

  it("accepts the confirmation on an account without history too", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const account = await createOk(client, { name: "Main", currency: "USD" });
    expect((await client.delete(`/api/accounts/${account.id}?confirm=delete-history`)).status).toBe(204);
  });

  it("answers 404 for an unknown id", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    await errorOf(await client.delete(`/api/accounts/${crypto.randomUUID()}`), 404, "NOT_FOUND");
    await errorOf(await client.delete("/api/accounts/123"), 400, "VALIDATION_ERROR");
  });
});
