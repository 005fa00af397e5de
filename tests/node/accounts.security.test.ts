// Cross-user access: another user's account or brokerage id behaves exactly like an id that does not
// exist (404 NOT_FOUND, same body), and nothing about it changes.
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { accounts, brokerages, ledgerEntries } from "../../lib/db/schema.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");


type Call = (client: TestClient, id: string) => Promise<Response>;
const patch = (client: TestClient, path: string, json: unknown) => client.request(path, { method: "PATCH", json });

/** The error with its request id blanked, so two answers can be compared. */
async function notFoundBody(res: Response) {
  expect(res.status).toBe(404);
  const body = await res.json();
  expect(body.error.code).toBe("NOT_FOUND");
  return { ...body, error: { ...body.error, requestId: "" } };
}

/** An owner with a brokerage and an account (with history) linked to it, and an intruder with their own. */
async function twoUsers() {
  const t = await journal(url());
  const owner = await t.signUp();
  const brokerage = await (await owner.client.post("/api/brokerages", { name: "Owner's broker" })).json();
  const account = await (
    await owner.client.post("/api/accounts", { name: "Owner's account", currency: "USD", startingBalance: "100", brokerageId: brokerage.id })
  ).json();
  expect(account.id).toEqual(expect.any(String));
  const intruder = await t.signUp();
  const intruderBrokerage = await (await intruder.client.post("/api/brokerages", { name: "Intruder's broker" })).json();
  const snapshot = async () => ({
    account: await t.db.select().from(accounts).where(eq(accounts.id, account.id)),
    brokerage: await t.db.select().from(brokerages).where(eq(brokerages.id, brokerage.id)),
    entries: await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, account.id)),
  });
  return { t, owner, intruder, account, brokerage, intruderBrokerage, snapshot };
}

const accountCalls: [string, Call][] = [
  ["GET", (c, id) => c.get(`/api/accounts/${id}`)],
  ["PATCH name", (c, id) => patch(c, `/api/accounts/${id}`, { name: "Hijacked" })],
  ["PATCH timezone", (c, id) => patch(c, `/api/accounts/${id}`, { timezone: "Etc/UTC" })],
  ["PATCH brokerage to null", (c, id) => patch(c, `/api/accounts/${id}`, { brokerageId: null })],
  ["DELETE", (c, id) => c.delete(`/api/accounts/${id}`)],
  ["DELETE with confirm", (c, id) => c.delete(`/api/accounts/${id}?confirm=delete-history`)],
];

const brokerageCalls: [string, Call][] = [
  ["GET", (c, id) => c.get(`/api/brokerages/${id}`)],
  ["PATCH", (c, id) => patch(c, `/api/brokerages/${id}`, { name: "Hijacked" })],
  ["DELETE", (c, id) => c.delete(`/api/brokerages/${id}`)],
];

describe("another user's account", () => {
  it.each(accountCalls)("%s answers 404 like an unknown id and changes nothing", async (_name, call) => {
    const { intruder, account, snapshot } = await twoUsers();
    const before = await snapshot();
    expect(before.account).toHaveLength(1);
    expect(before.entries).toHaveLength(1);
    const foreign = await notFoundBody(await call(intruder.client, account.id));
    const unknown = await notFoundBody(await call(intruder.client, crypto.randomUUID()));
    expect(foreign).toEqual(unknown);
    expect(await snapshot()).toEqual(before);
  });

  it("PATCH with the intruder's own brokerage is still 404 and changes nothing", async () => {
    const { intruder, account, intruderBrokerage, snapshot } = await twoUsers();
    const before = await snapshot();
    await notFoundBody(await patch(intruder.client, `/api/accounts/${account.id}`, { brokerageId: intruderBrokerage.id }));
    expect(await snapshot()).toEqual(before);
  });

  it("is not in the intruder's list", async () => {
    const { intruder } = await twoUsers();
    expect(await (await intruder.client.get("/api/accounts")).json()).toEqual({ accounts: [] });
  });

  it("the owner still sees it unchanged afterwards", async () => {
    const { owner, intruder, account } = await twoUsers();
    for (const [, call] of accountCalls) await call(intruder.client, account.id);
    const res = await owner.client.get(`/api/accounts/${account.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(account);
  });
});

describe("another user's brokerage", () => {
  it.each(brokerageCalls)("%s answers 404 like an unknown id and changes nothing", async (_name, call) => {
    const { intruder, brokerage, snapshot } = await twoUsers();
    const before = await snapshot();
    const foreign = await notFoundBody(await call(intruder.client, brokerage.id));
    const unknown = await notFoundBody(await call(intruder.client, crypto.randomUUID()));
    expect(foreign).toEqual(unknown);
    expect(await snapshot()).toEqual(before);
  });

  it("is not in the intruder's list", async () => {
    const { intruder, intruderBrokerage } = await twoUsers();
    expect(await (await intruder.client.get("/api/brokerages")).json()).toEqual({ brokerages: [intruderBrokerage] });
  });

  it("cannot be attached to the intruder's account, on create or on PATCH: 403 FORBIDDEN", async () => {
    const { intruder, brokerage, snapshot } = await twoUsers();
    const before = await snapshot();
    const res = await intruder.client.post("/api/accounts", { name: "Mine", currency: "USD", brokerageId: brokerage.id });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("FORBIDDEN");
    expect(await (await intruder.client.get("/api/accounts")).json()).toEqual({ accounts: [] });
    const mine = await (await intruder.client.post("/api/accounts", { name: "Mine", currency: "USD" })).json();
    const patched = await patch(intruder.client, `/api/accounts/${mine.id}`, { brokerageId: brokerage.id });
    expect(patched.status).toBe(403);
    expect((await patched.json()).error.code).toBe("FORBIDDEN");
    expect((await (await intruder.client.get(`/api/accounts/${mine.id}`)).json()).brokerageId).toBeNull();
    expect(await snapshot()).toEqual(before);
  });
});
