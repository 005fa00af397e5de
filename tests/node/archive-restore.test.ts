// The complete archive taken back (lib/archive/restore.ts; docs/accounts.md "Everything, as one ZIP"): made on
// one freshly migrated instance with its screenshots in object storage, restored by a new user of another
// (its own database and its own bucket), and read back the same through the API; and every refusal writing
// nothing, not even a staged image.
import { sql } from "drizzle-orm";
import { rowsOf } from "../../lib/db/rows.ts";
import { strFromU8, unzipSync, zipSync, strToU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { pngImage } from "../support/images.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { startS3Server, type S3Server } from "../support/s3-server.ts";
import { testConfig } from "../support/env.ts";
import { objectStorageSettings } from "../../lib/storage/index.ts";
import { createObjectScratch } from "../../lib/storage/scratch-object.ts";

let stand: ProviderServer;
let s3a: S3Server;
let s3b: S3Server;
const dbs: Array<{ name: string; url: string }> = [];
beforeAll(async () => {
  stand = await startProviderServer();
  s3a = await startS3Server();
  s3b = await startS3Server();
  dbs.push(await createMigratedDatabase("archive_a"), await createMigratedDatabase("archive_b"));
}, 120_000);
afterAll(async () => {
  await stand?.close();
  await s3a?.close();
  await s3b?.close();
  for (const db of dbs) await dropDatabase(db.name);
});

const png = (rgb: [number, number, number]) => new Uint8Array(pngImage({ width: 48, height: 24, rgb }));

async function addImage(client: TestClient, path: string, rgb: [number, number, number]): Promise<Uint8Array> {
  const form = new FormData();
  form.set("file", new Blob([png(rgb)], { type: "image/png" }), "shot.png");
  const res = await client.request(`${path}/images`, { method: "POST", body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = await res.json();
  return new Uint8Array(await (await client.get(`${path}/images/${id}`)).arrayBuffer());
}

/** Every image of an owner, as bytes, oldest first. */
async function imagesOf(client: TestClient, path: string): Promise<string[]> {
  const { images } = await (await client.get(`${path}/images`)).json();
  const out: string[] = [];
  for (const i of images as Array<{ id: string }>) out.push(Buffer.from(await (await client.get(`${path}/images/${i.id}`)).arrayBuffer()).toString("base64"));
  return out;
}

const restore = (client: TestClient, body: Uint8Array, type = "application/zip") =>
  client.request("/api/archive", { method: "POST", body: body as Uint8Array<ArrayBuffer>, headers: { "Content-Type": type } });

/** What a trader sees of their journal, without this instance's ids and times of writing. */
/** The comments on a trade or day as the trader reads them: who (their email, or "you"), what, when. */
async function commentsOf(client: TestClient, path: string) {
  const { comments } = (await (await client.get(`${path}/comments`)).json()) as { comments: Array<{ mine: boolean; authorEmail: string; body: string; createdAt: string }> };
  return comments.map((c) => ({ by: c.mine ? "you" : c.authorEmail, body: c.body, createdAt: c.createdAt }));
}

async function journalView(client: TestClient) {
  const { accounts } = await (await client.get("/api/accounts")).json();
  const out = [];
  for (const a of accounts as Array<{ id: string; name: string; balance: string }>) {
    const { trades } = await (await client.get(`/api/trades?accountId=${a.id}&limit=500`)).json();
    const list = [];
    for (const t of trades as Array<Record<string, unknown> & { id: string }>) {
      // The trade on its chart: the bars the trader uploaded (the archive must hold them: issue 52).
      const chart = (await (await client.get(`/api/trades/${t.id}/chart?resolution=1m`)).json()) as { bars: unknown[]; coverage: { sources: string[] } };
      list.push({
        symbol: t.symbol,
        netPnl: t.netPnl,
        openedAt: t.openedAt,
        notes: t.notes,
        tags: t.tags,
        stopPrice: (t.risk as { stopPrice: string | null }).stopPrice,
        images: await imagesOf(client, `/api/trades/${t.id}`),
        comments: await commentsOf(client, `/api/trades/${t.id}`),
        chart: { bars: chart.bars, sources: chart.coverage.sources },
      });
    }
    const { imports } = await (await client.get(`/api/csv-import/history?accountId=${a.id}`)).json();
    out.push({
      name: a.name,
      balance: a.balance,
      trades: list,
      day: await imagesOf(client, `/api/days/${a.id}/2026-03-04`),
      dayComments: await commentsOf(client, `/api/days/${a.id}/2026-03-04`),
      imports: (imports as Array<Record<string, unknown>>).map((i) => ({ fileName: i.fileName, status: i.status, fillsCreated: i.fillsCreated })),
    });
  }
  const { playbooks } = await (await client.get("/api/playbooks")).json();
  const books = [];
  for (const p of playbooks as Array<{ id: string; name: string }>) books.push({ name: p.name, images: await imagesOf(client, `/api/playbooks/${p.id}`) });
  const { journals } = await (await client.get("/api/journals/detached")).json();
  const detached = [];
  for (const j of journals as Array<Record<string, unknown> & { id: string }>) {
    const { images } = await (await client.get(`/api/journals/${j.id}`)).json();
    detached.push({ symbol: j.symbol, notes: j.notes, tags: j.tags, netPnl: j.netPnl, images: (images as unknown[]).length });
  }
  const { conversations } = await (await client.get("/api/advisor/conversations")).json();
  const talks = [];
  for (const c of conversations as Array<{ id: string; title: string }>) {
    const { messages } = await (await client.get(`/api/advisor/conversations/${c.id}`)).json();
    talks.push({ title: c.title, messages: (messages as Array<{ role: string; text: string }>).map((m) => [m.role, m.text]) });
  }
  return { accounts: out, playbooks: books, detached, conversations: talks };
}

/** A stop on the losing side of the sample's trades: AAPL bought at 170.50, ESZ26 sold at 6000.25. */
const stopFor = (symbol: string) => (symbol === "AAPL" ? "150" : "6100");

/** A trader's whole journal on instance A: an import, notes and screenshots on a trade, a playbook's and a day's images, a detached note with its screenshot, a conversation. */
async function fillJournal(t: TestApp, client: TestClient) {
  const accountId = (await (await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "10000" })).json()).id as string;
  const form = new FormData();
  form.set("file", new Blob([GENERIC_SAMPLE]), "sample.csv");
  form.set("request", JSON.stringify({ accountId, presetId: "generic" }));
  const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
  expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
  const { trades } = await (await client.get(`/api/trades?accountId=${accountId}`)).json();
  expect(trades.length).toBeGreaterThanOrEqual(2);
  const [kept, gone] = trades as Array<{ id: string; symbol: string }>;
  expect((await client.request(`/api/trades/${kept!.id}`, { method: "PATCH", json: { notes: "Clean breakout", tags: ["breakout"], stopPrice: stopFor(kept!.symbol) } })).status).toBe(200);
  await addImage(client, `/api/trades/${kept!.id}`, [200, 30, 30]);
  await addImage(client, `/api/trades/${kept!.id}`, [30, 200, 30]);
  expect((await client.request(`/api/trades/${gone!.id}`, { method: "PATCH", json: { notes: "Chased it", tags: ["fomo"], stopPrice: stopFor(gone!.symbol) } })).status).toBe(200);
  await addImage(client, `/api/trades/${gone!.id}`, [10, 10, 200]);
  // Comments (issue 59): the trader's and a mentor's on the kept trade, one on the trade whose fills go (its note
  // keeps it), one on a day.
  const mentor = await signUp(t, "archive-mentor");
  const mentorEmail = (await (await mentor.client.get("/api/auth/me")).json()).user.email as string;
  const grant = await (await client.post("/api/mentors", { email: mentorEmail, accountIds: [accountId], scopes: ["trades", "days"] })).json();
  expect((await mentor.client.post(`/api/mentees/${grant.mentor.id}/accept`)).status).toBe(200);
  const owner = (await (await client.get("/api/auth/me")).json()).user.id as string;
  expect((await mentor.client.post(`/api/trades/${kept!.id}/comments?mentee=${owner}`, { body: "Good patience." })).status).toBe(201);
  expect((await client.post(`/api/trades/${kept!.id}/comments`, { body: "Thanks!" })).status).toBe(201);
  expect((await client.post(`/api/trades/${gone!.id}/comments`, { body: "Why did I chase?" })).status).toBe(201);
  expect((await mentor.client.post(`/api/days/${accountId}/2026-03-04/comments?mentee=${owner}`, { body: "Plan kept?" })).status).toBe(201);
  const book = await (await client.post("/api/playbooks", { name: "Bull flag", entryCriteria: "Break of the flag" })).json();
  await addImage(client, `/api/playbooks/${book.id}`, [90, 90, 0]);
  await addImage(client, `/api/days/${accountId}/2026-03-04`, [0, 90, 90]);
  // The kept trade's 1-minute bars, uploaded: from 5 minutes before it opened, 56 of them.
  const candles = ["time,open,high,low,close,volume"];
  const opened = Date.parse((trades as Array<{ openedAt: string }>)[0]!.openedAt);
  for (let m = -5; m <= 50; m++) {
    const at = new Date(opened + m * 60_000).toISOString();
    const open = (kept!.symbol === "AAPL" ? 170 : 6000) + (((m % 7) + 7) % 7) / 4;
    candles.push(`${at},${open.toFixed(2)},${(open + 0.6).toFixed(2)},${(open - 0.5).toFixed(2)},${(open + 0.1).toFixed(2)},${1000 + m}`);
  }
  const upload = new FormData();
  upload.set("file", new Blob([candles.join("\n")]), "bars.csv");
  upload.set("symbol", kept!.symbol);
  upload.set("resolution", "1m");
  expect((await client.request("/api/bars/upload", { method: "POST", body: upload })).status).toBe(201);
  // A manual fill in the deleted trade's symbol is not needed: deleting its fills detaches its note.
  const { fills } = await (await client.get(`/api/fills?accountId=${accountId}&symbol=${gone!.symbol}`)).json();
  for (const f of fills) expect((await client.request(`/api/fills/${f.id}`, { method: "DELETE" })).status).toBe(204);
  expect((await client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: `sk-good-${crypto.randomUUID().replaceAll("-", "")}` } })).status).toBe(200);
  const conversation = await (await client.post("/api/advisor/conversations", { title: "My Fridays" })).json();
  // The conversation's two messages as a finished turn leaves them (a turn needs a model; the archive only reads rows).
  await t.deps.db.execute(sql`insert into advisor_messages (id, conversation_id, role, text, status, created_at) values
    (gen_random_uuid(), ${conversation.id}::uuid, 'user', 'Why do I lose on Fridays?', 'complete', now() - interval '1 minute'),
    (gen_random_uuid(), ${conversation.id}::uuid, 'assistant', 'You trade twice as often.', 'complete', now())`);
  // Settings and an exchange rate of their own (docs/currencies.md): written straight, as no rate service answers here.
  const me = (await (await client.get("/api/auth/me")).json()).user.id as string;
  await t.deps.db.execute(sql`insert into user_settings (user_id, base_currency, privacy_mode, digest) values (${me}::uuid, 'EUR', true, '{"weekly":true,"weekday":1,"hour":8,"zone":"Europe/Berlin"}')`);
  await t.deps.db.execute(sql`insert into fx_overrides (user_id, day, currency, base, rate) values (${me}::uuid, '2026-03-04', 'USD', 'EUR', 1.0825)`);
  await t.deps.db.execute(sql`insert into fx_broker_rates (user_id, account_id, day, currency, base, k) values (${me}::uuid, ${accountId}::uuid, '2026-03-05', 'USD', 'EUR', 0.92345678901234)`);
  // A prop-firm evaluation on the account (docs/prop-firms.md).
  const evaluation = { firm: "Topstep", phase: "evaluation", startDate: "2024-01-02", startingBalance: "50000", profitTarget: "3000", maxDrawdown: "2000", drawdownMode: "eod_trailing",
    dailyLossLimit: "1000", dailyLossIncludesOpen: true, dayStartsAt: "17:00", dayZone: "America/Chicago", minTradingDays: 2, consistencyPct: 50, maxContracts: 5, floorLocksAt: "0" };
  expect((await client.request(`/api/accounts/${accountId}/evaluation`, { method: "PUT", json: evaluation })).status).toBe(200);
  // And the trader's warning thresholds on it (docs/prop-firms.md, "Warnings").
  expect((await client.request(`/api/accounts/${accountId}/evaluation/warnings`, { method: "PUT", json: { floorDistance: "750.5", dailyLossLeft: "300", email: true } })).status).toBe(200);
  return accountId;
}

describe("POST /api/archive", () => {
  it("restores an archive of another instance (screenshots in its object storage) into a new user's data, the same through the API, and its import can still be undone", async () => {
    const a = await testApp(dbs[0]!.url, { ...stand.env, ...s3a.env }, { peer: "per-request" });
    const { client: alice } = await signUp(a, "archive-from");
    await fillJournal(a, alice);
    // A decision on a possible wash sale (docs/tax.md), written as the route writes it.
    const aliceId = (await (await alice.get("/api/auth/me")).json()).user.id as string;
    await a.deps.db.execute(sql`insert into tax_wash_decisions (user_id, symbol, loss_sold_at, replacement_symbol, replacement_at, decision)
      values (${aliceId}::uuid, 'AAPL', '2026-02-02', 'AAPL  260619C00150000', '2026-02-10', 'wash')`);
    const zip = new Uint8Array(await (await alice.get("/api/archive")).arrayBuffer());
    const before = await journalView(alice);
    expect(before.accounts[0]!.trades[0]!).toMatchObject({ notes: "Clean breakout", tags: ["breakout"], stopPrice: expect.stringMatching(/^(150|6100)\./) });
    expect(before.accounts[0]!.trades[0]!.images).toHaveLength(2);
    expect(before.detached).toEqual([expect.objectContaining({ notes: "Chased it", tags: ["fomo"], images: 1 })]);
    expect(before.accounts[0]!.trades[0]!.chart.bars.length).toBeGreaterThan(20);
    expect(before.accounts[0]!.trades[0]!.chart.sources).toEqual(["upload"]);

    const b = await testApp(dbs[1]!.url, { ...stand.env, ...s3b.env }, { peer: "per-request" });
    const { client: bob } = await signUp(b, "archive-to");
    const objectsBefore = s3b.objects.size;
    const res = await restore(bob, zip);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toEqual({ accounts: 1, fills: expect.any(Number), entries: 0, journaled: 1, screenshots: 5, detachedNotes: 1, conversations: 1, imports: 1, bars: 56, comments: 4 });
    expect(await journalView(bob)).toEqual(before);
    expect(before.accounts[0]!.trades[0]!.comments).toEqual([
      { by: expect.stringMatching(/^archive-mentor/), body: "Good patience.", createdAt: expect.any(String) },
      { by: "you", body: "Thanks!", createdAt: expect.any(String) },
    ]);
    expect(before.accounts[0]!.dayComments).toEqual([{ by: expect.stringMatching(/^archive-mentor/), body: "Plan kept?", createdAt: expect.any(String) }]);
    // The detached note's comment came along on the note.
    const noteComments = async (app: TestApp, c: TestClient) =>
      rowsOf<{ body: string }>(await app.deps.db.execute(sql`select c.body from comments c join trade_journals j on j.id = c.journal_id
        where c.owner_id = ${(await (await c.get("/api/auth/me")).json()).user.id}::uuid and j.position_id is null`));
    expect(await noteComments(b, bob)).toEqual([{ body: "Why did I chase?" }]);
    expect(await noteComments(a, alice)).toEqual([{ body: "Why did I chase?" }]);
    // The settings and the trader's own rate came along.
    expect(await (await bob.get("/api/settings")).json()).toEqual(await (await alice.get("/api/settings")).json());
    expect(await (await bob.get("/api/settings")).json()).toMatchObject({ baseCurrency: "EUR", privacyMode: true, digest: { weekday: 1 } });
    const rates = async (app: TestApp, c: TestClient) =>
      rowsOf(await app.deps.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, currency, base, rate::text from fx_overrides where user_id = ${(await (await c.get("/api/auth/me")).json()).user.id}::uuid`));
    expect(await rates(b, bob)).toEqual([{ day: "2026-03-04", currency: "USD", base: "EUR", rate: "1.0825" }]);
    expect(await rates(b, bob)).toEqual(await rates(a, alice));
    // And the broker's own rate, to its last decimal.
    const brokers = async (app: TestApp, c: TestClient) =>
      rowsOf(await app.deps.db.execute(sql`select a.name, to_char(day, 'YYYY-MM-DD') as day, b.currency, base, k::text from fx_broker_rates b join accounts a on a.id = b.account_id
        where b.user_id = ${(await (await c.get("/api/auth/me")).json()).user.id}::uuid`));
    expect(await brokers(b, bob)).toEqual([{ name: expect.any(String), day: "2026-03-05", currency: "USD", base: "EUR", k: "0.92345678901234" }]);
    expect(await brokers(b, bob)).toEqual(await brokers(a, alice));
    // And the evaluation, with its status over the restored fills.
    const evaluationOf = async (c: TestClient) => {
      const { accounts: list } = await (await c.get("/api/accounts")).json();
      const body = await (await c.get(`/api/accounts/${list[0].id}/evaluation`)).json();
      return { ...body, evaluation: { ...body.evaluation, accountId: undefined } };
    };
    expect((await evaluationOf(bob)).evaluation).toMatchObject({ firm: "Topstep", drawdownMode: "eod_trailing", floorLocksAt: "0.00", dayZone: "America/Chicago" });
    expect(await evaluationOf(bob)).toEqual(await evaluationOf(alice));
    const thresholdsOf = async (c: TestClient) => {
      const { accounts: list } = await (await c.get("/api/accounts")).json();
      return (await (await c.get(`/api/accounts/${list[0].id}/evaluation/warnings`)).json()).warnings;
    };
    expect(await thresholdsOf(bob)).toEqual({ floorDistance: "750.50", dailyLossLeft: "300.00", email: true, given: [] });
    const bobId = (await (await bob.get("/api/auth/me")).json()).user.id as string;
    expect(rowsOf(await b.deps.db.execute(sql`select symbol, to_char(loss_sold_at, 'YYYY-MM-DD') as sold, replacement_symbol, decision from tax_wash_decisions where user_id = ${bobId}::uuid`))).toEqual([
      { symbol: "AAPL", sold: "2026-02-02", replacement_symbol: "AAPL  260619C00150000", decision: "wash" },
    ]);
    // The detached note's stop (the API does not show a note's plan) came along too.
    const stopOf = async (app: TestApp, userId: string) =>
      ((await app.deps.db.execute(sql`select j.stop_price::text as stop from trade_journals j join accounts a on a.id = j.account_id
        where a.user_id = ${userId}::uuid and j.position_id is null`)).rows as Array<{ stop: string }>).map((r) => Number(r.stop));
    const me = async (c: typeof alice) => (await (await c.get("/api/auth/me")).json()).user.id as string;
    expect(await stopOf(b, await me(bob))).toEqual(await stopOf(a, await me(alice)));
    expect((await stopOf(b, await me(bob)))[0]).toBeGreaterThan(0);
    // Its images went to this instance's bucket, none inline, and nothing is left staged.
    expect(s3b.objects.size - objectsBefore).toBe(5);
    const [where] = (await b.deps.db.execute(sql`select count(*) filter (where storage_key is not null)::int as stored, count(*)::int as n,
      (select count(*)::int from archive_restore_images) as staged from trade_images`)).rows as Array<{ stored: number; n: number; staged: number }>;
    expect(where).toEqual({ stored: 5, n: 5, staged: 0 });

    // The restored import still holds its fills: undoing it removes them, and the notes stay (detached).
    const { accounts } = await (await bob.get("/api/accounts")).json();
    const { imports } = await (await bob.get(`/api/csv-import/history?accountId=${accounts[0].id}`)).json();
    const undo = await bob.post(`/api/csv-import/${imports[0].importId}/undo`, {});
    expect(undo.status, await undo.clone().text()).toBe(200);
    expect((await (await bob.get(`/api/trades?accountId=${accounts[0].id}`)).json()).trades).toEqual([]);
    const { journals } = await (await bob.get("/api/journals/detached")).json();
    expect(journals.map((j: { notes: string }) => j.notes).sort()).toEqual(["Chased it", "Clean breakout"]);

    // The same archive again: its account exists now, so 409 and nothing more written (the staged images discarded, their objects queued).
    const again = await restore(bob, zip);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("CONFLICT");
    const [after] = (await b.deps.db.execute(sql`select (select count(*)::int from trade_images) as images, (select count(*)::int from archive_restore_images) as staged,
      (select count(*)::int from accounts) as accounts, (select count(*)::int from object_deletions where key like 'trade-images/%') as queued`)).rows as Array<Record<string, number>>;
    expect(after).toEqual({ images: 5, staged: 0, accounts: 1, queued: 5 });
  }, 120_000);

  it("restores the same way with the upload kept in the object store (the archive Worker's scratch), which keeps nothing after", async () => {
    const a = await testApp(dbs[0]!.url, { ...stand.env, ...s3a.env }, { peer: "per-request" });
    const { client: alice } = await signUp(a, "archive-from-edge");
    await fillJournal(a, alice);
    const zip = new Uint8Array(await (await alice.get("/api/archive")).arrayBuffer());
    const before = await journalView(alice);
    const scratch = createObjectScratch(objectStorageSettings(testConfig(s3b.env))!);
    const b = await testApp(dbs[1]!.url, { ...stand.env, ...s3b.env }, { peer: "per-request", scratch });
    const { client: carol } = await signUp(b, "archive-to-edge");
    const reads = s3b.ranged.length;
    const res = await restore(carol, zip);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await journalView(carol)).toEqual(before);
    // Read back with ranged GETs of the scratch object, then deleted; no upload left open.
    expect(s3b.ranged.slice(reads).every((r) => r.key.startsWith("scratch/"))).toBe(true);
    expect(s3b.ranged.length - reads).toBeGreaterThan(0);
    expect([...s3b.objects.keys()].filter((k) => k.startsWith("scratch/"))).toEqual([]);
    expect(s3b.pendingUploads()).toBe(0);
  }, 120_000);

  it("refuses what is not a complete archive, writing nothing", async () => {
    const t = await testApp(inject("databaseUrl"), { ARCHIVE_IMPORT_MAX_BYTES: "200000" }, { peer: "per-request" });
    const { client } = await signUp(t, "archive-refused");
    await client.post("/api/accounts", { name: "Main", currency: "USD" });
    const good = unzipSync(new Uint8Array(await (await client.get("/api/archive")).arrayBuffer()));
    expect((await client.request("/api/accounts/" + (await (await client.get("/api/accounts")).json()).accounts[0].id, { method: "DELETE" })).status).toBe(204);
    const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error.code });

    expect(await errorOf(await restore(client, strToU8("date,symbol\n")))).toEqual({ status: 400, code: "VALIDATION_ERROR" });
    expect(await errorOf(await restore(client, zipSync(good), "text/csv"))).toEqual({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(await errorOf(await restore(client, new Uint8Array(200_001)))).toEqual({ status: 413, code: "PAYLOAD_TOO_LARGE" });
    const { "manifest.json": _m, ...noManifest } = good;
    expect(await errorOf(await restore(client, zipSync(noManifest)))).toEqual({ status: 400, code: "VALIDATION_ERROR" });
    // An image that is not one, listed for a day of the archive's account: refused after the journal was checked, nothing kept.
    const listed = [{ file: "screenshots/x.png", contentType: "image/png", createdAt: "2026-03-04T10:00:00Z", owner: { day: { account: 0, date: "2026-03-04" } } }];
    const fake = { ...good, "screenshots.json": strToU8(JSON.stringify(listed)), "screenshots/x.png": strToU8("<svg onload=alert(1)>") };
    const res = await restore(client, zipSync(fake));
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual([{ path: "screenshots/x.png", message: "is not a PNG, JPEG or WebP image" }]);
    // A listed image missing from the zip, and an owner outside the archive: named, nothing written.
    const missing = { ...good, "screenshots.json": strToU8(JSON.stringify([{ ...listed[0], owner: { playbook: "nope" } }])) };
    const refused = await (await restore(client, zipSync(missing))).json();
    expect(refused.error.fields.map((f: { message: string }) => f.message)).toEqual(["screenshots/x.png is not in the archive", "screenshots/x.png: its playbook is not in journal.json"]);
    // Bars that an upload would refuse (a low above the close), or an option's, or a listed file missing: named, nothing written.
    const barsOf = (csv: string | null, symbol = "AAPL") => ({
      ...good,
      "bars.json": strToU8(JSON.stringify([{ file: "bars/1.csv", symbol, resolution: "1m", bars: 1 }])),
      ...(csv === null ? {} : { "bars/1.csv": strToU8(csv) }),
    });
    const badBars = await (await restore(client, zipSync(barsOf("time,open,high,low,close,volume\n2026-03-02T14:31:00Z,170,171,170.5,170.2,100\n")))).json();
    expect(badBars.error.fields).toEqual([{ path: "bars.json.0", message: "bars/1.csv: row 2: low is above the bar's open or close" }]);
    const optionBars = await (await restore(client, zipSync(barsOf("time,open,high,low,close\n2026-03-02T14:31:00Z,1,1,1,1\n", "AAPL  260320C00200000")))).json();
    expect(optionBars.error.fields[0].message).toMatch(/^bars\/1\.csv: Options are charted by their fills/);
    expect((await (await restore(client, zipSync(barsOf(null)))).json()).error.fields).toEqual([{ path: "bars.json.0", message: "bars/1.csv: is not in the archive" }]);
    expect((await t.deps.db.execute(sql`select count(*)::int as n from bars where user_id = (select id from users where email = ${(await (await client.get("/api/auth/me")).json()).user.email})`)).rows).toEqual([{ n: 0 }]);
    const [left] = (await t.deps.db.execute(sql`select (select count(*)::int from accounts where user_id = ${(await (await client.get("/api/auth/me")).json()).user.id}::uuid) as accounts`)).rows as Array<{ accounts: number }>;
    expect(left).toEqual({ accounts: 0 });
    expect(JSON.parse(strFromU8(good["manifest.json"]!))).toMatchObject({ format: "trading-journal-archive" });
  });

  it("holds the archive's tags to the API's tag rules too: a blank one refused, padded and repeated ones cleaned", async () => {
    const t = await testApp(inject("databaseUrl"), {}, { peer: "per-request" });
    const { client, userId } = await signUp(t, "archive-tags");
    await client.post("/api/accounts", { name: "Main", currency: "USD" });
    const good = unzipSync(new Uint8Array(await (await client.get("/api/archive")).arrayBuffer()));
    const accountId = (await (await client.get("/api/accounts")).json()).accounts[0].id;
    expect((await client.request(`/api/accounts/${accountId}`, { method: "DELETE" })).status).toBe(204);
    const withJournal = (change: (j: { accounts: Array<{ days?: unknown[] }>; tagKinds?: unknown[] }) => void) => {
      const journal = JSON.parse(strFromU8(good["journal.json"]!));
      change(journal);
      return zipSync({ ...good, "journal.json": strToU8(JSON.stringify(journal)) });
    };
    const blank = await restore(client, withJournal((j) => (j.accounts[0]!.days = [{ day: "2026-03-04", plan: null, review: null, mood: null, tags: [""] }])));
    expect(blank.status).toBe(400);
    expect((await blank.json()).error.fields).toContainEqual({ path: "accounts.0.days.0.tags.0", message: "must not be empty" });
    const ok = await restore(
      client,
      withJournal((j) => {
        j.accounts[0]!.days = [{ day: "2026-03-04", plan: null, review: null, mood: null, tags: [" Gap ", "gap", "GAP"] }];
        j.tagKinds = [{ tag: "gap ", kind: "setup" }];
      }),
    );
    expect(ok.status).toBe(201);
    const [day] = rowsOf<{ tags: string[] }>(await t.deps.db.execute(sql`select d.tags from day_journals d join accounts a on a.id = d.account_id where a.user_id = ${userId}::uuid`));
    expect(day!.tags).toEqual(["Gap"]);
    expect(rowsOf(await t.deps.db.execute(sql`select tag, kind from tag_kinds where user_id = ${userId}::uuid`))).toEqual([{ tag: "Gap", kind: "setup" }]);
  });

  it("takes at most 10 archives an hour from one user: the 11th is 429 with Retry-After", async () => {
    const t = await testApp(inject("databaseUrl"), {}, { peer: "per-request" });
    const { client } = await signUp(t, "archive-limit");
    for (let i = 0; i < 10; i++) expect((await restore(client, strToU8("not a zip"))).status).toBe(400);
    const limited = await restore(client, strToU8("not a zip"));
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("is 401 signed out", async () => {
    const t = await testApp(inject("databaseUrl"));
    expect((await t.client().request("/api/archive", { method: "POST", body: new Uint8Array(4), headers: { "Content-Type": "application/zip" } })).status).toBe(401);
  });
});
