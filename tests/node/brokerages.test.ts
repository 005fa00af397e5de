import { asc, eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { accounts, brokerages } from "../../lib/db/schema.ts";
import { journal } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");


const patch = (client: TestClient, path: string, json: unknown) => client.request(path, { method: "PATCH", json });

async function errorOf(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string; requestId: string; fields?: { path: string; message: string }[] } };
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBe(res.headers.get("X-Request-Id"));
  return body.error;
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function brokeragesOf(db: Awaited<ReturnType<typeof journal>>["db"], userId: string) {
  return db.select().from(brokerages).where(eq(brokerages.userId, userId)).orderBy(asc(brokerages.createdAt));
}

async function createOk(client: TestClient, name: string) {
  const res = await client.post("/api/brokerages", { name });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; name: string; createdAt: string; updatedAt: string };
}

describe("POST /api/brokerages", () => {
  it("creates a brokerage with a trimmed name: 201", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const res = await client.post("/api/brokerages", { name: "  Interactive Brokers " });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ id: expect.any(String), name: "Interactive Brokers", createdAt: expect.stringMatching(ISO_UTC), updatedAt: expect.stringMatching(ISO_UTC) });
    const rows = await brokeragesOf(t.db, userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: body.id, name: "Interactive Brokers" });
  });

  it("refuses a duplicate name in any case with 409 CONFLICT", async () => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    await createOk(client, "Schwab");
    await errorOf(await client.post("/api/brokerages", { name: "SCHWAB " }), 409, "CONFLICT");
    expect(await brokeragesOf(t.db, userId)).toHaveLength(1);
    // Another user may use the name.
    await createOk((await t.signUp()).client, "Schwab");
  });

  it.each([
    ["no name", {}],
    ["an empty name", { name: " " }],
    ["a 101-character name", { name: "b".repeat(101) }],
    ["a numeric name", { name: 7 }],
  ])("refuses %s with 400 VALIDATION_ERROR", async (_name, body) => {
    const t = await journal(url());
    const { client, userId } = await t.signUp();
    const error = await errorOf(await client.post("/api/brokerages", body), 400, "VALIDATION_ERROR");
    expect(error.fields).toEqual([{ path: "name", message: expect.any(String) }]);
    expect(await brokeragesOf(t.db, userId)).toEqual([]);
  });

  it("is 401 without a session", async () => {
    const t = await journal(url());
    await errorOf(await t.anonymous().post("/api/brokerages", { name: "x" }), 401, "UNAUTHORIZED");
    await errorOf(await t.anonymous().get("/api/brokerages"), 401, "UNAUTHORIZED");
  });
});

describe("GET /api/brokerages", () => {
  it("lists only the user's own, by name whatever the case", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    await createOk((await t.signUp()).client, "Aardvark Securities");
    const c = await createOk(client, "charles");
    const a = await createOk(client, "Alpaca");
    const b = await createOk(client, "BROKER B");
    const res = await client.get("/api/brokerages");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ brokerages: [a, b, c] });
  });

  it("gets one by id; an unknown id is 404 and a malformed one 400", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const b = await createOk(client, "Fidelity");
    const res = await client.get(`/api/brokerages/${b.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(b);
    await errorOf(await client.get(`/api/brokerages/${crypto.randomUUID()}`), 404, "NOT_FOUND");
    await errorOf(await client.get("/api/brokerages/xyz"), 400, "VALIDATION_ERROR");
  });
});

describe("PATCH /api/brokerages/:id", () => {
  it("renames it", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const b = await createOk(client, "Old");
    const res = await patch(client, `/api/brokerages/${b.id}`, { name: " New " });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ id: b.id, name: "New", createdAt: b.createdAt });
    expect(body.updatedAt >= b.updatedAt).toBe(true);
    const [row] = await t.db.select().from(brokerages).where(eq(brokerages.id, b.id));
    expect(row!.name).toBe("New");
  });

  it("refuses another brokerage's name with 409 but allows a change of case", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    await createOk(client, "Taken");
    const b = await createOk(client, "mine");
    await errorOf(await patch(client, `/api/brokerages/${b.id}`, { name: "taken" }), 409, "CONFLICT");
    const res = await patch(client, `/api/brokerages/${b.id}`, { name: "MINE" });
    expect(res.status).toBe(200);
    expect((await res.json()).name).toBe("MINE");
  });

  it("refuses an invalid name with 400 and an unknown id with 404", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const b = await createOk(client, "Keep");
    await errorOf(await patch(client, `/api/brokerages/${b.id}`, { name: "" }), 400, "VALIDATION_ERROR");
    await errorOf(await patch(client, `/api/brokerages/${crypto.randomUUID()}`, { name: "x" }), 404, "NOT_FOUND");
    const [row] = await t.db.select().from(brokerages).where(eq(brokerages.id, b.id));
    expect(row!.name).toBe("Keep");
  });
});

describe("DELETE /api/brokerages/:id", () => {
  it("deletes it: 204, and its accounts stay without a brokerage", async () => {
    const t = await journal(url());
    const { client } = await t.signUp();
    const b = await createOk(client, "Closing down");
    const account = await (await client.post("/api/accounts", { name: "Main", currency: "USD", brokerageId: b.id })).json();
    const res = await client.delete(`/api/brokerages/${b.id}`);
    expect(res.status).toBe(204);
    expect(await t.db.select().from(brokerages).where(eq(brokerages.id, b.id))).toEqual([]);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row).toMatchObject({ name: "Main", brokerageId: null });
    expect((await (await client.get(`/api/accounts/${account.id}`)).json()).brokerageId).toBeNull();
    await errorOf(await client.delete(`/api/brokerages/${b.id}`), 404, "NOT_FOUND");
  });
});
