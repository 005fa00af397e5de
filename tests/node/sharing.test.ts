// Sharing and mentors through the API (issue 59, docs/sharing.md). First the access table: every mounted route
// walked as a mentor, a stranger, a personal access token and a public link's token, each answered as
// lib/sharing/access.ts says. Then a mentor's whole life (invited, refused before accepting, reading only what
// was granted, never writing, removed mid-session, expired), comments by both sides that follow the trade
// through a rebuild, and public links: the allowlist field by field, views counted exactly under concurrency,
// and revoked, expired, unknown and malformed tokens answering alike. Real Postgres, the real migrations.
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import type * as zc from "zod/v4/core";
import { DELETE_HISTORY_CONFIRMATION } from "../../lib/accounts/accounts.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { apiRoutes } from "../../lib/http/openapi.ts";
import { CalendarSchema, EquitySchema, StatsSummarySchema } from "../../lib/stats/responses.ts";
import { TradeDetailSchema } from "../../lib/trades/responses.ts";
import { MENTOR_ROUTES, MENTOR_SCOPES } from "../../lib/sharing/access.ts";
import { CALENDAR_DAY_FIELDS, EQUITY_POINT_FIELDS, FILL_FIELDS, SUMMARY_FIELDS, TRADE_FIELDS, type FieldClass } from "../../lib/sharing/shares.ts";
import { journal, testApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";

const url = () => inject("databaseUrl");
const NOT_SHARED = "Not found, or not shared with you.";
const GONE = "This link does not exist, has expired or was revoked.";

async function json(res: Response, status = 200) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return text ? JSON.parse(text) : null;
}

/** A trader with two accounts, a round trip in each (with notes on the first), and a day entry; a mentor; a stranger. */
async function world() {
  const j = await journal(url());
  const owner = await j.signUp("owner");
  const mentor = await j.signUp("mentor");
  const stranger = await j.signUp("stranger");
  const emailOf = async (id: string) => rowsOf<{ email: string }>(await j.db.execute(sql`select email from users where id = ${id}::uuid`))[0]!.email;
  const account = async (name: string) =>
    (await json(await owner.client.post("/api/accounts", { name: `${name} ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" }), 201)).id as string;
  const a = await account("Granted");
  const b = await account("Private");
  await json(await owner.client.request(`/api/accounts/${a}`, { method: "PATCH", json: { defaultRisk: "100" } }));
  const trip = async (accountId: string, symbol: string, sell: string) => {
    await json(await owner.client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "100", price: "50", fees: "1", executedAt: "2026-10-05T10:00:00-04:00" }), 201);
    await json(await owner.client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "100", price: sell, fees: "1", executedAt: "2026-10-05T11:00:00-04:00" }), 201);
    return (await json(await owner.client.get(`/api/trades?accountId=${accountId}&symbol=${symbol}`))).trades[0].id as string;
  };
  const ta = await trip(a, "AAPL", "52");
  const tb = await trip(b, "MSFT", "49");
  await json(await owner.client.request(`/api/trades/${ta}`, { method: "PATCH", json: { notes: "Waited for the pullback", tags: ["patience"] } }));
  await json(await owner.client.request(`/api/days/${a}/2026-10-05`, { method: "PUT", json: { plan: "Only A+ setups" } }));
  return { j, owner, mentor, stranger, emailOf, a, b, ta, tb };
}

type World = Awaited<ReturnType<typeof world>>;

/** Invites the mentor to account a with `scopes` and accepts: the grant id. */
async function grant(w: World, scopes: string[] = [...MENTOR_SCOPES], accountIds = [w.a]) {
  const made = await json(await w.owner.client.post("/api/mentors", { email: await w.emailOf(w.mentor.userId), accountIds, scopes }), 201);
  expect((await w.mentor.client.post(`/api/mentees/${made.mentor.id}/accept`)).status).toBe(200);
  return made.mentor.id as string;
}

const as = (client: TestClient, path: string, mentee: string, init: RequestInit & { json?: unknown } = {}) =>
  client.request(`${path}${path.includes("?") ? "&" : "?"}mentee=${mentee}`, init);

describe("the access table", () => {
  it("names only mounted routes; a route whose account is a query parameter takes accountId", async () => {
    const w = await world();
    const routes = new Map(apiRoutes(w.j.t.app).map((r) => [`${r.method} ${r.path}`, r]));
    for (const [key, entry] of Object.entries(MENTOR_ROUTES)) {
      const route = routes.get(key);
      expect(route, key).toBeDefined();
      if (entry.account === "query") {
        const query = route!.validators.find((v) => v.target === "query");
        const shape = (query?.schema as unknown as { _zod: { def: { shape?: Record<string, unknown> } } } | undefined)?._zod.def.shape;
        expect(shape && "accountId" in shape, `${key} takes accountId`).toBe(true);
      }
      if (entry.account === "path") expect(key, key).toContain(":accountId");
      if (entry.account === "trade") expect(key, key).toMatch(/^[A-Z]+ \/api\/trades\/:id/);
    }
  });

  it("every mounted route, walked as a mentor, a stranger, a token and a public link, answers as the table says", async () => {
    const w = await world();
    await grant(w);
    const token = (await json(await w.owner.client.post("/api/auth/tokens", { name: "walk", scopes: ["read", "import", "fills:write"], password: "correct horse battery staple" }), 201)).token as string;
    const link = (await json(await w.owner.client.post("/api/shares", { kind: "trade", tradeId: w.ta, show: {} }), 201)).token as string;
    const routes = apiRoutes(w.j.t.app).filter((r) => r.auth && !r.doc?.public);
    expect(routes.length).toBeGreaterThan(150);
    const concrete = (path: string) =>
      path
        .replace(":id", path.startsWith("/api/trades/") ? w.ta : "00000000-0000-4000-8000-000000000000")
        .replace(":accountId", w.a)
        .replace(":day", "2026-10-05")
        .replace(/:[A-Za-z]+/g, "00000000-0000-4000-8000-000000000000");
    let granted = 0;
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const entry = MENTOR_ROUTES[key];
      const reading = route.method === "GET";
      const path = `${concrete(route.path)}?accountId=${w.a}`;
      const send = (client: TestClient) => as(client, path, w.owner.userId, { method: route.method, ...(reading ? {} : { json: {} }) });
      const body = async (res: Response) => ((await res.json().catch(() => ({}))) as { error?: { message: string } }).error?.message;

      const byMentor = await send(w.mentor.client);
      if (!entry) {
        expect(byMentor.status, `${key} as a mentor`).toBe(reading ? 404 : 403);
        if (reading) expect(await body(byMentor), key).toBe(NOT_SHARED);
      } else {
        granted++;
        expect([401, 403], `${key} as a mentor answered ${byMentor.status}`).not.toContain(byMentor.status);
        if (byMentor.status === 404) expect(await body(byMentor), key).not.toBe(NOT_SHARED); // a made-up image id
      }
      const byStranger = await send(w.stranger.client);
      expect(byStranger.status, `${key} as a stranger`).toBe(reading || entry ? 404 : 403);

      const tokenClient = w.j.anonymous();
      tokenClient.headers = { Authorization: `Bearer ${token}` };
      expect((await send(tokenClient)).status, `${key} with a token and mentee`).toBe(403);

      const linkClient = w.j.anonymous();
      linkClient.headers = { Authorization: `Bearer ${link}` };
      expect((await linkClient.request(concrete(route.path), { method: route.method, ...(reading ? {} : { json: {} }) })).status, `${key} with a link's token`).toBe(401);
    }
    expect(granted).toBe(Object.keys(MENTOR_ROUTES).length);
  });
});

describe("mentors", () => {
  it("invited, refused before accepting, reads only what was granted, never writes, removed mid-session", async () => {
    const w = await world();
    const mentorEmail = await w.emailOf(w.mentor.userId);
    // Bad invitations: 400 naming the field, nothing stored.
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await json(await w.owner.client.post("/api/mentors", body), 400);
      expect(res.error.fields.map((f: { path: string }) => f.path), JSON.stringify(res)).toContain(field);
    };
    await bad({ email: await w.emailOf(w.owner.userId), accountIds: [w.a], scopes: ["trades"] }, "email");
    await bad({ email: mentorEmail, accountIds: [crypto.randomUUID()], scopes: ["trades"] }, "accountIds");
    await bad({ email: mentorEmail, accountIds: [w.a], scopes: ["everything"] }, "scopes.0");
    await bad({ email: mentorEmail, accountIds: [], scopes: ["trades"] }, "accountIds");
    expect((await json(await w.owner.client.get("/api/mentors"))).mentors).toEqual([]);

    const made = await json(await w.owner.client.post("/api/mentors", { email: mentorEmail.toUpperCase(), accountIds: [w.a], scopes: ["trades", "stats"], expiresInDays: 30 }), 201);
    expect(made.mentor).toMatchObject({ email: mentorEmail, accountIds: [w.a], scopes: ["trades", "stats"], status: "invited", expiresAt: expect.any(String) });
    // Before accepting: 404, as for anyone.
    expect(await json(await as(w.mentor.client, `/api/trades?accountId=${w.a}`, w.owner.userId), 404)).toMatchObject({ error: { message: NOT_SHARED } });
    // The invitation is the mentor's, not the stranger's.
    expect((await json(await w.stranger.client.get("/api/mentees"))).mentees).toEqual([]);
    expect((await w.stranger.client.post(`/api/mentees/${made.mentor.id}/accept`)).status).toBe(404);
    const listed = (await json(await w.mentor.client.get("/api/mentees"))).mentees;
    expect(listed).toEqual([expect.objectContaining({ id: made.mentor.id, userId: w.owner.userId, status: "invited", accountIds: [w.a], accounts: [expect.objectContaining({ id: w.a })] })]);
    expect((await json(await w.mentor.client.post(`/api/mentees/${made.mentor.id}/accept`))).mentee.status).toBe("active");

    // Granted: account a's trades (what was written blanked: no journal scope), its stats.
    const list = await json(await as(w.mentor.client, `/api/trades?accountId=${w.a}`, w.owner.userId));
    expect(list.trades.map((t: { id: string }) => t.id)).toEqual([w.ta]);
    expect(list.trades[0]).toMatchObject({ notes: null, tags: [], netPnl: "198.00" });
    expect((await json(await as(w.mentor.client, `/api/trades/${w.ta}`, w.owner.userId))).trade).toMatchObject({ id: w.ta, notes: null });
    expect((await json(await as(w.mentor.client, `/api/stats/summary?accountId=${w.a}`, w.owner.userId))).netPnl).toBe("198.00");
    // Not granted: the other account, its trade, a scope not given, no account named, a route outside the table.
    for (const path of [`/api/trades?accountId=${w.b}`, `/api/trades/${w.tb}`, `/api/stats/summary?accountId=${w.b}`, `/api/days?accountId=${w.a}&from=2026-10-01&to=2026-10-31`, `/api/trades/${w.ta}/images`, "/api/accounts", `/api/ledger/${w.a}`]) {
      expect(await json(await as(w.mentor.client, path, w.owner.userId), 404), path).toMatchObject({ error: { message: NOT_SHARED } });
    }
    expect((await json(await as(w.mentor.client, "/api/trades", w.owner.userId), 400)).error.fields[0].path).toBe("accountId");
    // Writes: 403, nothing changed.
    const write = await as(w.mentor.client, `/api/trades/${w.ta}`, w.owner.userId, { method: "PATCH", json: { notes: "mentor was here" } });
    expect(write.status).toBe(403);
    expect((await json(await w.owner.client.get(`/api/trades/${w.ta}`))).trade.notes).toBe("Waited for the pullback");
    expect((await as(w.mentor.client, "/api/fills", w.owner.userId, { method: "POST", json: { accountId: w.a } })).status).toBe(403);

    // The owner sees who read what.
    const views = (await json(await w.owner.client.get(`/api/mentors/${made.mentor.id}/views`))).views;
    expect(views.map((v: { route: string }) => v.route)).toEqual(expect.arrayContaining(["GET /api/trades", "GET /api/trades/:id", "GET /api/stats/summary"]));
    expect((await json(await w.owner.client.get("/api/mentors"))).mentors[0]).toMatchObject({ status: "active", lastViewedAt: expect.any(String) });
    expect((await w.stranger.client.get(`/api/mentors/${made.mentor.id}/views`)).status).toBe(404);

    // With the journal scope, the notes show; expired, nothing does; removed, nothing does.
    await json(await w.owner.client.post("/api/mentors", { email: mentorEmail, accountIds: [w.a], scopes: ["trades", "journal"] }), 201);
    expect((await json(await as(w.mentor.client, `/api/trades/${w.ta}`, w.owner.userId))).trade).toMatchObject({ notes: "Waited for the pullback", tags: ["patience"] });
    await w.j.db.execute(sql`update mentor_grants set expires_at = now() - interval '1 second' where id = ${made.mentor.id}::uuid`);
    expect((await as(w.mentor.client, `/api/trades/${w.ta}`, w.owner.userId)).status).toBe(404);
    expect((await json(await w.mentor.client.get("/api/mentees"))).mentees).toEqual([]);
    await w.j.db.execute(sql`update mentor_grants set expires_at = null where id = ${made.mentor.id}::uuid`);
    expect((await as(w.mentor.client, `/api/trades/${w.ta}`, w.owner.userId)).status).toBe(200);
    expect((await w.stranger.client.delete(`/api/mentors/${made.mentor.id}`)).status).toBe(404);
    expect((await w.owner.client.delete(`/api/mentors/${made.mentor.id}`)).status).toBe(204);
    expect((await as(w.mentor.client, `/api/trades/${w.ta}`, w.owner.userId)).status).toBe(404);
    expect(rowsOf(await w.j.db.execute(sql`select 1 from mentor_views v join mentor_grants g on g.id = v.grant_id where g.owner_id = ${w.owner.userId}::uuid`))).toEqual([]);
  });

  it("comments by both sides on a trade and a day; a trade's follow it through a rebuild and keep its journal", async () => {
    const w = await world();
    await grant(w, ["trades", "days"]);
    const evil = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
    const byMentor = await json(await as(w.mentor.client, `/api/trades/${w.ta}/comments`, w.owner.userId, { method: "POST", json: { body: `Good patience. ${evil}` } }), 201);
    expect(byMentor.comment).toMatchObject({ authorId: w.mentor.userId, mine: true, body: `Good patience. ${evil}` });
    await json(await w.owner.client.post(`/api/trades/${w.ta}/comments`, { body: "Thanks!" }), 201);
    const seenByOwner = (await json(await w.owner.client.get(`/api/trades/${w.ta}/comments`))).comments;
    expect(seenByOwner.map((c: { body: string; mine: boolean }) => [c.mine, c.body])).toEqual([[false, `Good patience. ${evil}`], [true, "Thanks!"]]);
    // Bad comments: 400 naming body; another's trade, or one not granted: 404; nothing stored.
    expect((await json(await w.owner.client.post(`/api/trades/${w.ta}/comments`, { body: "   " }), 400)).error.fields[0].path).toBe("body");
    expect((await json(await w.owner.client.post(`/api/trades/${w.ta}/comments`, { body: "x".repeat(5001) }), 400)).error.fields[0].path).toBe("body");
    expect((await w.stranger.client.post(`/api/trades/${w.ta}/comments`, { body: "hi" })).status).toBe(404);
    expect((await as(w.mentor.client, `/api/trades/${w.tb}/comments`, w.owner.userId, { method: "POST", json: { body: "hi" } })).status).toBe(404);
    // A day's, both sides.
    await json(await as(w.mentor.client, `/api/days/${w.a}/2026-10-05/comments`, w.owner.userId, { method: "POST", json: { body: "Plan kept?" } }), 201);
    await json(await w.owner.client.post(`/api/days/${w.a}/2026-10-05/comments`, { body: "Yes." }), 201);
    expect((await json(await as(w.mentor.client, `/api/days/${w.a}/2026-10-05/comments`, w.owner.userId))).comments.map((c: { body: string }) => c.body)).toEqual(["Plan kept?", "Yes."]);
    expect((await as(w.mentor.client, `/api/days/${w.b}/2026-10-05/comments`, w.owner.userId)).status).toBe(404);
    const count = async () => rowsOf<{ n: number }>(await w.j.db.execute(sql`select count(*)::int as n from comments where owner_id = ${w.owner.userId}::uuid`))[0]!.n;
    expect(await count()).toBe(4);

    // The trader clears the notes and adds a fill that rebuilds the trade: the comments follow, nothing is lost.
    await json(await w.owner.client.request(`/api/trades/${w.ta}`, { method: "PATCH", json: { notes: null, tags: [] } }));
    await json(await w.owner.client.post("/api/fills", { accountId: w.a, symbol: "AAPL", side: "buy", quantity: "10", price: "49", fees: "0", executedAt: "2026-10-05T09:59:00-04:00" }), 201);
    const now = (await json(await w.owner.client.get(`/api/trades?accountId=${w.a}&symbol=AAPL`))).trades[0].id as string;
    expect((await json(await w.owner.client.get(`/api/trades/${now}/comments`))).comments.map((c: { body: string }) => c.body)).toEqual([`Good patience. ${evil}`, "Thanks!"]);
    expect(await count()).toBe(4);
  });
});

/** The keys of an object schema's shape (zod mini). */
const keysOf = (schema: zc.$ZodType) => Object.keys((schema as unknown as { _zod: { def: { shape: Record<string, zc.$ZodType> } } })._zod.def.shape);
const inner = (schema: zc.$ZodType): zc.$ZodType => {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: zc.$ZodType; element?: zc.$ZodType } } })._zod.def;
  return def.innerType ? inner(def.innerType) : def.element ? inner(def.element) : schema;
};
const shapeOf = (schema: zc.$ZodType) => (schema as unknown as { _zod: { def: { shape: Record<string, zc.$ZodType> } } })._zod.def.shape;

/** The keys `classes` allows under `show`, nested objects as `key.sub`. */
function allowedKeys(classes: Record<string, FieldClass | Record<string, FieldClass>>, show: { money: boolean; notes: boolean }): string[] {
  const ok = (c: FieldClass) => c === "always" || (c === "money" && show.money) || (c === "notes" && show.notes);
  return Object.entries(classes).flatMap(([k, c]) => (typeof c === "string" ? (ok(c) ? [k] : []) : [k, ...Object.entries(c).filter(([, x]) => ok(x)).map(([s]) => `${k}.${s}`)]));
}
const flatKeys = (o: Record<string, unknown>) =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" && !Array.isArray(v) ? [k, ...Object.keys(v).map((s) => `${k}.${s}`)] : [k]));
/** allowedKeys less the nested keys of the objects that are null in `o` (a trade without excursions). */
const expectedKeys = (o: Record<string, unknown>, classes: Parameters<typeof allowedKeys>[0], show: Parameters<typeof allowedKeys>[1]) =>
  allowedKeys(classes, show).filter((k) => !k.includes(".") || o[k.split(".")[0]!] !== null);

describe("public links", () => {
  it("every field of a trade, a fill and the report's figures is classified (a new one fails here until it is)", () => {
    const trade = shapeOf(TradeDetailSchema).trade!;
    const tradeShape = shapeOf(trade);
    expect(Object.keys(tradeShape).sort()).toEqual(Object.keys(TRADE_FIELDS).sort());
    for (const nested of ["risk", "excursions"] as const) expect(keysOf(inner(tradeShape[nested]!)).sort(), nested).toEqual(Object.keys(TRADE_FIELDS[nested]).sort());
    expect(keysOf(inner(shapeOf(TradeDetailSchema).fills!)).sort()).toEqual(Object.keys(FILL_FIELDS).sort());
    expect(keysOf(StatsSummarySchema).sort()).toEqual(Object.keys(SUMMARY_FIELDS).sort());
    expect(keysOf(inner(shapeOf(StatsSummarySchema).r!)).sort()).toEqual(Object.keys(SUMMARY_FIELDS.r).sort());
    expect(keysOf(inner(shapeOf(EquitySchema).points!)).sort()).toEqual(Object.keys(EQUITY_POINT_FIELDS).sort());
    expect(keysOf(inner(shapeOf(CalendarSchema).days!)).sort()).toEqual(Object.keys(CALENDAR_DAY_FIELDS).sort());
  });

  it("a trade shows only what was chosen, signed out, no cookie, never indexed; views exact; revoked, expired, unknown and malformed alike", async () => {
    const w = await world();
    const ownerEmail = await w.emailOf(w.owner.userId);
    const bad = async (body: Record<string, unknown>, field: string, status = 400) => {
      const res = await json(await w.owner.client.post("/api/shares", body), status);
      if (status === 400) expect(res.error.fields.map((f: { path: string }) => f.path), JSON.stringify(res)).toContain(field);
    };
    await bad({ kind: "trade", show: {} }, "tradeId");
    await bad({ kind: "report", show: {} }, "accountIds");
    await bad({ kind: "trade", tradeId: w.ta, show: { money: "yes" } }, "show.money");
    await bad({ kind: "trade", tradeId: w.ta, show: {}, expiresInDays: 366 }, "expiresInDays");
    await bad({ kind: "report", accountIds: [w.a], from: "2026-11-01T00:00:00Z", to: "2026-10-01T00:00:00Z", show: {} }, "to");
    await bad({ kind: "report", accountIds: [crypto.randomUUID()], show: {} }, "accountIds");
    expect((await w.stranger.client.post("/api/shares", { kind: "trade", tradeId: w.ta, show: {} })).status).toBe(404);
    expect(rowsOf(await w.j.db.execute(sql`select 1 from shares where user_id in (${w.owner.userId}::uuid, ${w.stranger.userId}::uuid)`))).toEqual([]);

    const hidden = await json(await w.owner.client.post("/api/shares", { kind: "trade", tradeId: w.ta, show: { money: false, notes: false, images: false, chart: false } }), 201);
    expect(hidden.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hidden.url).toMatch(new RegExp(`/s/${hidden.token}$`));
    const stored = rowsOf<{ token_hash: string }>(await w.j.db.execute(sql`select token_hash from shares where id = ${hidden.id}::uuid`))[0]!;
    expect(stored.token_hash).not.toContain(hidden.token);

    const visitor = w.j.anonymous();
    const res = await visitor.get(`/api/public/shares/${hidden.token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const text = await res.text();
    const page = JSON.parse(text);
    expect(flatKeys(page.trade).sort()).toEqual([...expectedKeys(page.trade, TRADE_FIELDS, { money: false, notes: false }), "returnPercent"].sort());
    expect(page.trade).toMatchObject({ symbol: "AAPL", direction: "long", returnPercent: "4.00", risk: { rMultiple: "1.98" } });
    for (const f of page.fills) expect(Object.keys(f).sort()).toEqual(allowedKeys(FILL_FIELDS, { money: false, notes: false }).sort());
    for (const secret of [w.a, w.ta, w.owner.userId, ownerEmail, "198", "Waited", "patience", "10000"]) expect(text, secret).not.toContain(secret);
    expect(page).toMatchObject({ kind: "trade", chart: null, images: [] });

    const shown = await json(await w.owner.client.post("/api/shares", { kind: "trade", tradeId: w.ta, show: { money: true, notes: true, chart: true } }), 201);
    const full = await json(await visitor.get(`/api/public/shares/${shown.token}`));
    expect(flatKeys(full.trade).sort()).toEqual([...expectedKeys(full.trade, TRADE_FIELDS, { money: true, notes: true }), "returnPercent"].sort());
    expect(full.trade).toMatchObject({ netPnl: "198.00", notes: "Waited for the pullback", tags: ["patience"], currency: "USD" });
    expect(JSON.stringify(full)).not.toContain(w.a);

    // 60 concurrent views: 60 counted, no more, no less.
    await Promise.all(Array.from({ length: 60 }, () => visitor.get(`/api/public/shares/${hidden.token}`)));
    const list = (await json(await w.owner.client.get("/api/shares"))).shares;
    expect(list.find((s: { id: string }) => s.id === hidden.id)).toMatchObject({ views: 61, lastViewedAt: expect.any(String), tradeId: w.ta });
    expect(JSON.stringify(list)).not.toContain(hidden.token);

    // Revoked, expired, unknown, malformed: the same 404 body.
    const expired = await json(await w.owner.client.post("/api/shares", { kind: "trade", tradeId: w.ta, show: {} }), 201);
    await w.j.db.execute(sql`update shares set expires_at = now() - interval '1 second' where id = ${expired.id}::uuid`);
    expect((await w.stranger.client.delete(`/api/shares/${hidden.id}`)).status).toBe(404);
    expect((await w.owner.client.delete(`/api/shares/${hidden.id}`)).status).toBe(204);
    for (const token of [hidden.token, expired.token, "A".repeat(43), "short", "not*base64*at*all!", "x".repeat(150)]) {
      const gone = await visitor.get(`/api/public/shares/${encodeURIComponent(token)}`);
      expect(gone.status, token).toBe(404);
      expect(gone.headers.get("set-cookie")).toBeNull();
      const body = await gone.json();
      expect({ ...body.error, requestId: "" }, token).toEqual({ code: "NOT_FOUND", message: GONE, requestId: "" });
    }
  });

  it("a report shows the accounts' figures: R and counts with money hidden, money when chosen", async () => {
    const w = await world();
    const hidden = await json(await w.owner.client.post("/api/shares", { kind: "report", accountIds: [w.a], from: "2026-10-01T00:00:00Z", to: "2026-11-01T00:00:00Z", show: {} }), 201);
    const page = await json(await w.j.anonymous().get(`/api/public/shares/${hidden.token}`));
    expect(page.reports).toHaveLength(1);
    const [report] = page.reports;
    expect(flatKeys(report.summary).sort()).toEqual(allowedKeys(SUMMARY_FIELDS, { money: false, notes: false }).sort());
    expect(report.summary).toMatchObject({ trades: 1, wins: 1, r: { total: "1.98" } });
    for (const p of report.equity) expect(Object.keys(p).sort()).toEqual(allowedKeys(EQUITY_POINT_FIELDS, { money: false, notes: false }).sort());
    for (const d of report.calendar) expect(Object.keys(d).sort()).toEqual(allowedKeys(CALENDAR_DAY_FIELDS, { money: false, notes: false }).sort());
    expect(JSON.stringify(page)).not.toContain("198");
    const shown = await json(await w.owner.client.post("/api/shares", { kind: "report", accountIds: [w.a], show: { money: true } }), 201);
    expect((await json(await w.j.anonymous().get(`/api/public/shares/${shown.token}`))).reports[0].summary).toMatchObject({ netPnl: "198.00", currency: "USD" });
    // The account deleted: the link is gone.
    expect((await w.owner.client.delete(`/api/accounts/${w.a}?confirm=${DELETE_HISTORY_CONFIRMATION}`)).status).toBe(204);
    expect((await w.j.anonymous().get(`/api/public/shares/${shown.token}`)).status).toBe(404);
  });
});

describe("a public link's reader", () => {
  it("reads at most 120 pages a minute from one address: the 121st is 429 with Retry-After", async () => {
    const t = await testApp(url(), {}, { peer: `203.0.113.${Math.floor(Math.random() * 250) + 1}` });
    const reader = t.client();
    for (let i = 0; i < 120; i++) expect((await reader.get("/api/public/shares/unknown-token")).status).toBe(404);
    const limited = await reader.get("/api/public/shares/unknown-token");
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
