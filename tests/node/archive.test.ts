// The complete archive (lib/archive; docs/accounts.md "Everything, as one ZIP"), read back with a zip reader:
// every part there, the screenshots byte for byte (from Postgres and from object storage), nothing of
// another trader's, and never a provider key.
import { sql } from "drizzle-orm";
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";
import { pngImage } from "../support/images.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";

let stand: ProviderServer;
let s3: S3Server;
beforeAll(async () => {
  stand = await startProviderServer();
  s3 = await startS3Server();
});
afterAll(async () => {
  await stand?.close();
  await s3?.close();
});

async function screenshot(client: TestClient, tradeId: string, rgb: [number, number, number]) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(pngImage({ width: 64, height: 32, rgb }))], { type: "image/png" }), "shot.png");
  const res = await client.request(`/api/trades/${tradeId}/images`, { method: "POST", body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = await res.json();
  const bytes = new Uint8Array(await (await client.get(`/api/trades/${tradeId}/images/${id}`)).arrayBuffer());
  return { id, bytes };
}

async function archiveOf(client: TestClient) {
  const res = await client.get("/api/archive");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="trading-journal-archive-\d{4}-\d{2}-\d{2}\.zip"$/);
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

describe("GET /api/archive", () => {
  it.each([["in Postgres", false], ["in object storage", true]] as const)("holds the journal, the screenshots (%s), detached notes, conversations and import history", async (_where, objectStorage) => {
    const t: TestApp = await testApp(inject("databaseUrl"), { ...stand.env, ...(objectStorage ? s3.env : {}) }, { peer: "per-request" });
    const { client } = await signUp(t, "archive");
    const key = `sk-good-${crypto.randomUUID().replaceAll("-", "")}`;
    expect((await client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: key } })).status).toBe(200);
    expect((await client.post("/api/advisor/conversations", { title: "My Fridays" })).status).toBe(201);
    const accountId = (await (await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "10000" })).json()).id as string;
    const form = new FormData();
    form.set("file", new Blob([GENERIC_SAMPLE]), "sample.csv");
    form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
    const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
    expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    const { trades } = await (await client.get(`/api/trades?accountId=${accountId}`)).json();
    const aapl = trades.find((x: { symbol: string }) => x.symbol === "AAPL");
    expect((await client.request(`/api/trades/${aapl.id}`, { method: "PATCH", json: { notes: "Clean breakout", tags: ["breakout"] } })).status).toBe(200);
    const shots = [await screenshot(client, aapl.id, [200, 30, 30]), await screenshot(client, aapl.id, [30, 200, 30])];
    const stored = await t.deps.db.execute(sql`select count(*) filter (where storage_key is not null)::int as n from trade_images where id::text in (${shots[0]!.id}, ${shots[1]!.id})`);
    expect((stored.rows as Array<{ n: number }>)[0]!.n).toBe(objectStorage ? 2 : 0);
    const stranger = (await signUp(t, "archive-stranger")).client;
    const otherAccount = (await (await stranger.post("/api/accounts", { name: "Not yours", currency: "USD" })).json()).id as string;
    expect(otherAccount).toBeTruthy();

    const files = await archiveOf(client);
    const json = (name: string) => JSON.parse(strFromU8(files[name]!));
    expect(Object.keys(files).sort()).toEqual(
      ["advisor/conversations.json", "bars.json", "comments.json", "detached-notes.json", "imports/history.json", "journal.json", "manifest.json", "screenshots.json", "settings.json", ...shots.map((s) => `screenshots/${s.id}.png`)].sort(),
    );
    // No bars uploaded: none listed (tests/node/archive-restore.test.ts carries some over).
    expect(json("bars.json")).toEqual([]);
    expect(json("manifest.json")).toMatchObject({ format: "trading-journal-archive", version: 1, accounts: 1, screenshots: 2, conversations: 1, imports: 1, uploadedBars: 0, comments: 0 });
    // journal.json is the JSON export (the same a fresh instance imports), but for its time.
    const exported = await (await client.get("/api/auth/account/export")).json();
    expect({ ...json("journal.json"), exportedAt: "" }).toEqual({ ...exported, exportedAt: "" });
    expect(json("journal.json").accounts.map((a: { name: string }) => a.name)).toEqual(["Main"]);
    // Each screenshot byte for byte, owned by the trade through the fill that opened it.
    const openFill = json("journal.json").accounts[0].journal[0].openFill;
    expect(json("screenshots.json")).toEqual(shots.map((s) => ({ file: `screenshots/${s.id}.png`, contentType: "image/png", createdAt: expect.any(String), owner: { trade: { account: 0, openFill } } })));
    for (const s of shots) expect(Buffer.from(files[`screenshots/${s.id}.png`]!).equals(Buffer.from(s.bytes))).toBe(true);
    expect(json("advisor/conversations.json")).toEqual([expect.objectContaining({ title: "My Fridays", provider: "openai", messages: [] })]);
    expect(json("settings.json")).toEqual({ baseCurrency: null, privacyMode: false, digest: null, fxOverrides: [], brokerRates: [], evaluations: [], washDecisions: [] });
    expect(json("imports/history.json")).toEqual([expect.objectContaining({ account: "Main", fileName: "sample.csv", format: "generic", status: "committed", fillsCreated: 4 })]);
    expect(json("detached-notes.json")).toEqual([]);
    expect(json("comments.json")).toEqual([]); // tests/node/archive-restore.test.ts carries some over
    // Never a provider key, nothing of the stranger's.
    const all = Object.values(files).map((f) => Buffer.from(f).toString("latin1")).join("\n");
    expect(all).not.toContain(key);
    expect(all).not.toContain("Not yours");

    // Deleting the trade's fills detaches its note: the archive keeps it, with its screenshots.
    const { fills } = await (await client.get(`/api/fills?accountId=${accountId}&symbol=AAPL`)).json();
    for (const f of fills) expect((await client.request(`/api/fills/${f.id}`, { method: "DELETE" })).status).toBe(204);
    const later = await archiveOf(client);
    const detached = JSON.parse(strFromU8(later["detached-notes.json"]!));
    expect(detached).toEqual([expect.objectContaining({ account: "Main", symbol: "AAPL", notes: "Clean breakout", tags: ["breakout"] })]);
    expect(JSON.parse(strFromU8(later["screenshots.json"]!)).map((s: { owner: unknown }) => s.owner)).toEqual([{ detachedNote: detached[0].ref }, { detachedNote: detached[0].ref }]);
  });

  it("is 401 signed out", async () => {
    const t = await testApp(inject("databaseUrl"));
    expect((await t.client().get("/api/archive")).status).toBe(401);
  });
});
