// Every mounted route, read from the app itself, sent generated bad input with fast-check: malformed and
// truncated JSON, wrong types, missing and extra fields, long strings, deep nesting, NUL characters and lone
// surrogates, "NaN"/"Infinity"/"1e400"/"-0", bad and foreign ids, wrong content types, empty bodies, far dates,
// unknown enum values. For every request: no 5xx, the error envelope with a named code, nothing internal in the
// body (stack, SQL, file path), and no change to any user-data table when the answer is an error. A failure
// prints fast-check's seed and path: `ROBUST_SEED=<seed>` replays it. Then the cross-user sweep: every route
// that takes an id, called by a second user with the first user's ids, answers exactly as for ids that do not
// exist and changes nothing (generated from the route table, so a new route is covered without a new test).
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { createLogger } from "../../lib/log.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient } from "../support/client.ts";
import { SoftwareAuthenticator } from "../support/authenticator.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { pngImage } from "../support/images.ts";
import { release, startReleasesServer, type ReleasesServer } from "../support/releases-server.ts";

const RUNS = Number(process.env.ROBUST_RUNS ?? 12); // eslint-disable-line no-restricted-properties
const SEED = process.env.ROBUST_SEED === undefined ? undefined : Number(process.env.ROBUST_SEED); // eslint-disable-line no-restricted-properties

/** Routes that would end the fuzzing user's own session: tested by the auth tests, not here. */
const SKIP = new Set(["POST /api/auth/logout", "DELETE /api/auth/sessions", "DELETE /api/auth/sessions/:id", "POST /api/auth/password"]);

/** Every user-data table (sessions left out: each request refreshes its own). */
const TABLES = [
  "users", "email_tokens", "brokerages", "accounts", "ledger_entries", "fills", "positions", "position_fills", "csv_imports",
  "stored_keys", "wallets", "wallet_movements", "credit_holds", "credit_purchases", "subscriptions", "advisor_conversations",
  "advisor_messages", "advisor_settings", "payment_events", "billing_customers", "trade_images", "trade_journals", "journal_fills",
  "splits", "option_expiry_kept", "bars", "bar_days", "trade_excursions", "playbooks", "day_journals", "trading_rules", "tag_kinds",
  "user_totp", "backup_codes", "sign_in_challenges", "access_tokens", "known_devices", "passkeys", "webauthn_flows",
  "strategies", "strategy_legs", "strategy_pending", "fill_tombstones", "user_settings", "fx_overrides", "fx_broker_rates", "prop_evaluations",
  "shares", "mentor_grants", "mentor_views", "comments",
];

const LEAKS = /\bat \w[\w.<>]* \(|node_modules|\/work\/|\.ts:\d+|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate \w+ set\b|Failed query|params:/i;

let db: { name: string; url: string };
let t: TestApp;
let client: TestClient;
let stand: ProviderServer;
let releases: ReleasesServer;
const ids: Record<string, string> = {};
/** Error lines the server logged: printed with a failure, to say what went wrong inside. */
const errors: string[] = [];

beforeAll(async () => {
  db = await createMigratedDatabase("journal_robust");
  stand = await startProviderServer();
  // The changelog's source answers (its 503 when it never could is a designed answer, tested in the node project).
  releases = await startReleasesServer();
  releases.releases = [release("v1.0.0", "2026-01-01T00:00:00Z")];
  t = await testApp(db.url, { ...stand.env, CHANGELOG_RELEASES_BASE_URL: releases.url }, { peer: "per-request", log: createLogger({ write: (line) => line.includes('"level":"error"') && errors.push(line) }) });
  ({ client } = await signUp(t, "robust"));
  Object.assign(ids, await ownData(client));
});
afterAll(async () => {
  await stand?.close();
  await releases?.close();
  if (db) await dropDatabase(db.name);
});

/** One of everything a route can name by id, owned by the client's user. */
async function ownData(owner: TestClient): Promise<Record<string, string>> {
  const json = async (res: Response | Promise<Response>) => (await res).json();
  const account = await json(owner.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "1000", timezone: "America/New_York" }));
  const fill = await json(owner.post("/api/fills", { accountId: account.id, symbol: "AAPL", side: "buy", quantity: "1", price: "10", executedAt: "2024-01-02T14:30:00Z" }));
  const trade = (await json(owner.get(`/api/trades?accountId=${account.id}`))).trades[0];
  const brokerage = await json(owner.post("/api/brokerages", { name: `Broker ${crypto.randomUUID()}` }));
  const entry = await json(owner.post(`/api/ledger/${account.id}/entries`, { type: "deposit", amount: "5" }));
  const form = new FormData();
  form.set("file", new Blob(["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID\n2024-01-03T14:30:00Z,MSFT,BUY,1,10,0,r1\n"]), "t.csv");
  form.set("request", JSON.stringify({ accountId: account.id, presetId: "generic" }));
  const preview = await json(owner.request("/api/csv-import/preview", { method: "POST", body: form }));
  expect((await owner.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: `sk-good-${crypto.randomUUID()}` } })).status).toBe(200);
  const conversation = await json(owner.post("/api/advisor/conversations", {}));
  const shot = new FormData();
  shot.set("file", new Blob([pngImage() as BlobPart]), "shot.png");
  const image = await json(owner.request(`/api/trades/${trade.id}/images`, { method: "POST", body: shot }));
  const journal = (await json(owner.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { notes: "mine" } }))).trade.journalId;
  const split = await json(owner.post("/api/splits", { symbol: "AAPL", date: "2024-06-10", newShares: "4", oldShares: "1" }));
  const playbook = await json(owner.post("/api/playbooks", { name: "ORB", items: [{ kind: "checkbox", label: "Volume" }] }));
  expect((await owner.request(`/api/days/${account.id}/${OWNED_DAY}`, { method: "PUT", json: { plan: "mine" } })).status).toBe(200);
  const rule = await json(owner.post("/api/rules", { accountId: account.id, rule: { type: "max_trades_per_day", count: 3 } }));
  const token = await json(owner.post("/api/auth/tokens", { name: "script", scopes: ["read"], password: PASSWORD }));
  const passkeyFlow = await json(owner.post("/api/passkeys/options", {}));
  const passkey = await json(owner.post("/api/passkeys", { flowId: passkeyFlow.flowId, credential: await new SoftwareAuthenticator("http://localhost").create(passkeyFlow.options) }));
  await json(owner.post("/api/fills", { accountId: account.id, symbol: "SPY   270115C00500000", side: "buy", quantity: "1", price: "3", executedAt: "2024-01-04T15:00:00Z" }));
  const strategy = (await json(owner.get("/api/strategies"))).strategies[0];
  const share = await json(owner.post("/api/shares", { kind: "trade", tradeId: trade.id, show: { notes: true } }));
  const mentor = (await json(owner.post("/api/mentors", { email: `mentor-${crypto.randomUUID()}@example.com`, accountIds: [account.id], scopes: ["trades"] }))).mentor;
  expect((await owner.post(`/api/trades/${trade.id}/comments`, { body: "mine" })).status).toBe(201);
  return {
    account: account.id,
    fill: fill.id ?? fill.fill?.id,
    trade: trade.id,
    brokerage: brokerage.id,
    entry: entry.id ?? entry.entry?.id,
    import: preview.importId,
    conversation: conversation.id,
    image: image.id,
    journal,
    split: split.id,
    playbook: playbook.id,
    strategy: strategy.id,
    rule: rule.id,
    token: token.id,
    passkey: passkey.id,
    share: share.id,
    mentor: mentor.id,
    day: OWNED_DAY,
  };
}

/** The day of the owner's daily journal entry (a day is not an id: another user's request names the same day). */
const OWNED_DAY = "2024-01-02";

/** The owned id a route's parameter names: by the parameter, else by the route's group. */
function ownIdFor(template: string, param: string, owned: Record<string, string>): string | undefined {
  if (param === "accountId") return owned.account;
  if (param === "entryId") return owned.entry;
  if (param === "importId") return owned.import;
  if (param === "imageId") return owned.image;
  if (param === "tradeId") return owned.trade;
  if (param === "day") return owned.day;
  const group = /^\/api\/(accounts|brokerages|fills|trades|journals|splits|playbooks|rules|strategies|advisor\/conversations|auth\/tokens|passkeys|shares|mentors|mentees)\//.exec(template)?.[1];
  return group
    ? owned[{ accounts: "account", brokerages: "brokerage", fills: "fill", trades: "trade", journals: "journal", splits: "split", playbooks: "playbook", rules: "rule", strategies: "strategy", "advisor/conversations": "conversation", "auth/tokens": "token", passkeys: "passkey", shares: "share", mentors: "mentor", mentees: "mentor" }[group]!]
    : undefined;
}

async function checksum(): Promise<string> {
  const parts = await Promise.all(
    TABLES.map(async (table) => {
      const [row] = rowsOf<{ sum: string | null }>(await t.deps.db.execute(sql.raw(`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as sum from ${table} x`)));
      return `${table}:${row!.sum}`;
    }),
  );
  return parts.join(",");
}

const uuid = fc.uuid();
const weirdString = fc.oneof(
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "x\udc00", "\u200b", "NaN", "Infinity", "-Infinity", "1e400", "-0", "0x10", "null", "true", "../../etc/passwd", "<script>", "' or 1=1 --"),
  fc.constantFrom("0000-01-01T00:00:00Z", "9999-12-31T23:59:59-14:00", "2024-02-30T00:00:00Z", "+010000-01-01T00:00:00Z", "1969-12-31T23:59:59Z"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.integer({ min: 1000, max: 5000 }).map((n) => "x".repeat(n)),
);
/** A real instant at any two-digit offset, with or without minutes (the probe's "+99:99" and "+23": Postgres' 22009). */
const anyOffset = fc
  .tuple(fc.constantFrom("T", " "), fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 99 }), fc.option(fc.integer({ min: 0, max: 99 })), fc.boolean())
  .map(([sep, sign, h, m, colon]) => `2026-03-02${sep}14:30:00.123${sign}${String(h).padStart(2, "0")}${m === null ? "" : `${colon ? ":" : ""}${String(m).padStart(2, "0")}`}`);
/** A cursor as a list writes it (base64 of {at, id}), holding what no list writes: a time of "1", 36 dashes... */
const craftedCursor = fc
  .record({
    at: fc.oneof(fc.constantFrom("1", "0", "-1", "infinity", "-infinity", "epoch", "now", "294277-01-01T00:00:00Z", "2024-02-30T00:00:00Z", "0001-01-01T00:00:00Z", "2026-03-02 10:00"), weirdString, anyOffset),
    id: fc.oneof(fc.constantFrom("-".repeat(36), "g".repeat(36), "00000000-0000-0000-0000-00000000000", ""), uuid),
  })
  .map((c) => Buffer.from(JSON.stringify(c)).toString("base64").replace(/=+$/, ""));

const weirdValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    weirdString,
    fc.double(),
    fc.integer(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308),
    fc.boolean(),
    fc.constant(null),
    uuid,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(weirdString, fc.constantFrom("name", "amount", "accountId", "symbol", "tags", "notes", "apiKey", "packId", "text", "clientMessageId", "importId")), tie("value"), { maxKeys: 5 }),
  ),
})).value;
const deepNesting = fc.integer({ min: 50, max: 3000 }).map((n) => "[".repeat(n) + "]".repeat(n));

const body = fc.oneof(
  weirdValue.map((v) => ({ text: JSON.stringify(v) ?? "null", type: "application/json" })),
  fc.string({ maxLength: 60 }).map((s) => ({ text: `{"a": ${s}`, type: "application/json" })), // malformed, truncated
  deepNesting.map((text) => ({ text, type: "application/json" })),
  weirdValue.map((v) => ({ text: JSON.stringify(v) ?? "", type: fc.sample(fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-16", "multipart/form-data; boundary=x", ""), 1)[0]! })),
  fc.constant({ text: "", type: "application/json" }),
);

/** Percent-encoded, a lone surrogate as the bytes a client would send for it (not UTF-8). */
const encodeSegment = (raw: string) => {
  try {
    return encodeURIComponent(raw);
  } catch {
    return "%ED%A0%80";
  }
};

function pathFor(template: string, pick: number, raw: string): string {
  return template.replace(/:(\w+)/g, (_m, name: string) => {
    const own = ownIdFor(template, name, ids) ?? (name === "provider" ? "openai" : undefined);
    const choices = [own ?? crypto.randomUUID(), crypto.randomUUID(), encodeSegment(raw), "not-a-uuid", "%00", "0"];
    return choices[pick % choices.length]!;
  });
}

const routes = () => {
  const seen = new Set<string>();
  return t.app.routes
    .filter((r) => r.path.startsWith("/api/") && r.method !== "ALL" && !r.path.includes("*"))
    .map((r) => `${r.method} ${r.path}`)
    .filter((key) => !SKIP.has(key) && !seen.has(key) && (seen.add(key), true));
};

describe("every mounted route under generated bad input", () => {
  it("never answers 5xx, always answers errors in the envelope with nothing internal, and changes nothing when it refuses", async () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(50);
    for (const route of all) {
      const [method, template] = route.split(" ") as [string, string];
      await fc.assert(
        fc.asyncProperty(fc.nat(), weirdString, body, fc.dictionary(fc.constantFrom("page", "pageSize", "from", "to", "cursor", "limit", "symbol", "tag", "status", "by", "accountId", "q", "confirm"), fc.oneof(weirdString, craftedCursor), { maxKeys: 4 }), async (pick, raw, payload, query) => {
          const qs = new URLSearchParams(query).toString();
          const path = `${pathFor(template, pick, raw)}${qs ? `?${qs}` : ""}`;
          const before = await checksum();
          const hasBody = method !== "GET" && method !== "HEAD";
          const res = await client.request(path, {
            method,
            ...(hasBody ? { body: payload.text, headers: payload.type ? { "Content-Type": payload.type } : {} } : {}),
          });
          const text = await res.text();
          const where = `${method} ${path.slice(0, 200)} [${payload.type}: ${payload.text.slice(0, 120)}] -> ${res.status} ${text.slice(0, 300)} ${errors.splice(0).join(" ").slice(0, 1500)}`;
          expect(res.status, where).toBeLessThan(500);
          expect(text, where).not.toMatch(LEAKS);
          if (res.status >= 400) {
            const envelope = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; requestId?: unknown } };
            expect(envelope.error?.code, where).toMatch(/^[A-Z_]+$/);
            expect(typeof envelope.error?.message, where).toBe("string");
            expect(await checksum(), where).toBe(before);
          }
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
      );
    }
  });
});

/** The routes that take a multipart upload, with the parts a valid request carries. */
type Owned = Record<string, string>;
const UPLOADS: Array<{ path: (own: Owned) => string; parts: (own: Owned) => Array<{ name: string; filename?: string; type?: string; content: Buffer }> }> = [
  {
    path: () => "/api/csv-import/preview",
    parts: (own) => [
      { name: "file", filename: "t.csv", type: "text/csv", content: Buffer.from("Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID\n2024-01-03T14:30:00Z,MSFT,BUY,1,10,0,m1\n") },
      { name: "request", content: Buffer.from(JSON.stringify({ accountId: own.account, presetId: "generic" })) },
    ],
  },
  { path: (own) => `/api/trades/${own.trade}/images`, parts: () => [{ name: "file", filename: "shot.png", type: "image/png", content: pngImage({ width: 4, height: 4 }) }] },
  { path: () => "/api/auth/account/import", parts: () => [{ name: "file", filename: "export.json", type: "application/json", content: Buffer.from(JSON.stringify({ format: "trading-journal-export", version: 1, exportedAt: "x", brokerages: [], accounts: [] })) }] },
];

/** A multipart body from its parts, then broken the way `damage` says (the header's boundary may differ). */
function multipart(parts: ReturnType<(typeof UPLOADS)[number]["parts"]>, damage: { kind: string; at: number; junk: string }) {
  const boundary = "----robust" + "x".repeat(damage.kind === "long-boundary" ? 200 : 8);
  const chunks: Buffer[] = [];
  for (const [i, part] of parts.entries()) {
    const name = damage.kind === "no-name" && i === 0 ? "" : `; name="${part.name}"`;
    const file = part.filename === undefined ? "" : `; filename="${damage.kind === "weird-filename" ? damage.junk : part.filename}"`;
    const header = `Content-Disposition: form-data${name}${file}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}${damage.kind === "huge-header" ? `X-Pad: ${"a".repeat(20_000)}\r\n` : ""}`;
    chunks.push(Buffer.from(`--${boundary}\r\n${header}\r\n`), damage.kind === "empty-parts" ? Buffer.alloc(0) : part.content, Buffer.from("\r\n"));
    if (damage.kind === "duplicate-parts") chunks.push(Buffer.from(`--${boundary}\r\n${header}\r\n`), Buffer.from(damage.junk), Buffer.from("\r\n"));
  }
  if (damage.kind !== "no-closing") chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let body = Buffer.concat(chunks);
  if (damage.kind === "truncated") body = body.subarray(0, damage.at % Math.max(1, body.length));
  if (damage.kind === "binary-headers") body = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80]), body]);
  const type =
    damage.kind === "no-boundary" ? "multipart/form-data" : damage.kind === "wrong-boundary" ? "multipart/form-data; boundary=nope" : `multipart/form-data; boundary=${boundary}`;
  return { body, type };
}

describe("the upload routes under malformed multipart bodies", () => {
  it("never answer 5xx, answer errors in the envelope, and change nothing when they refuse", async () => {
    const damage = fc.record({
      kind: fc.constantFrom("none", "truncated", "no-closing", "no-boundary", "wrong-boundary", "long-boundary", "no-name", "weird-filename", "huge-header", "empty-parts", "duplicate-parts", "binary-headers"),
      at: fc.nat(),
      junk: weirdString,
    });
    // A fresh uploader: the sweep above may have deleted what the first client had.
    const uploader = (await signUp(t, "uploader")).client;
    const own = await ownData(uploader);
    for (const upload of UPLOADS) {
      // The undamaged body is a valid upload: the damage below is what gets refused, not the builder.
      const valid = multipart(upload.parts(own), { kind: "none", at: 0, junk: "" });
      const ok = await uploader.request(upload.path(own), { method: "POST", body: new Uint8Array(valid.body), headers: { "Content-Type": valid.type } });
      expect(ok.status, `${upload.path(own)}: ${await ok.clone().text()}`).toBe(201);
      await fc.assert(
        fc.asyncProperty(damage, async (d) => {
          const { body, type } = multipart(upload.parts(own), d);
          const before = await checksum();
          const res = await uploader.request(upload.path(own), { method: "POST", body: new Uint8Array(body), headers: { "Content-Type": type } });
          const text = await res.text();
          const where = `POST ${upload.path(own)} [${d.kind} ${d.at} ${JSON.stringify(d.junk).slice(0, 60)}] -> ${res.status} ${text.slice(0, 300)} ${errors.splice(0).join(" ").slice(0, 1500)}`;
          expect(res.status, where).toBeLessThan(500);
          expect(text, where).not.toMatch(LEAKS);
          if (res.status >= 400) {
            const envelope = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
            expect(envelope.error?.code, where).toMatch(/^[A-Z_]+$/);
            expect(typeof envelope.error?.message, where).toBe("string");
            expect(await checksum(), where).toBe(before);
          }
        }),
        { numRuns: RUNS * 4, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
      );
    }
  });
});

/** A body each id-taking route accepts, so a cross-user request reaches the ownership check. */
const PLAUSIBLE: Record<string, unknown> = {
  "PATCH /api/accounts/:id": { name: "Taken over" },
  "PATCH /api/brokerages/:id": { name: "Taken over" },
  "POST /api/ledger/:accountId/entries": { type: "deposit", amount: "1" },
  "PATCH /api/fills/:id": { price: "11" },
  "PATCH /api/trades/:id": { notes: "taken over" },
  "PATCH /api/playbooks/:id": { name: "Taken over" },
  "PUT /api/days/:accountId/:day": { plan: "taken over" },
  "PATCH /api/rules/:id": { weight: "nice" },
  "PATCH /api/strategies/:id": { notes: "taken over" },
  "POST /api/journals/:id/attach": { tradeId: "00000000-0000-4000-8000-000000000000" },
  "PATCH /api/advisor/conversations/:id": { title: "Taken over" },
  "POST /api/advisor/conversations/:id/turns": { clientMessageId: "7f0c8c2e-7b7a-4c53-9a53-3f1f1a1d2e3f", text: "hello" },
  "DELETE /api/passkeys/:id": { password: PASSWORD },
};

describe("another user's ids, on every id-taking route", () => {
  it("answer exactly as ids that do not exist, with a 4xx, and change nothing", async () => {
    // A fresh owner: the bad-input sweep above may have deleted what the first one had (valid requests pass).
    const owner = (await signUp(t, "owner")).client;
    const owned = await ownData(owner);
    const intruder = (await signUp(t, "intruder")).client;
    const templates = routes().filter((r) => /:(?!provider\b)\w+/.test(r));
    expect(templates.length).toBeGreaterThanOrEqual(20);
    for (const route of templates) {
      const [method, template] = route.split(" ") as [string, string];
      const fill = (theirs: boolean) =>
        template.replace(/:(\w+)/g, (_m, name: string) => (theirs ? ownIdFor(template, name, owned)! : name === "day" ? OWNED_DAY : crypto.randomUUID()));
      for (const payload of [PLAUSIBLE[route], {}]) {
        const send = (path: string) =>
          intruder.request(`${path}${method === "DELETE" && template === "/api/accounts/:id" ? "?confirm=delete-history" : ""}`, {
            method,
            ...(method === "GET" || method === "DELETE" ? {} : { json: payload }),
          });
        const before = await checksum();
        const theirs = await send(fill(true));
        const nobodys = await send(fill(false));
        type Body = { error?: { code: string; message: string } };
        const a = (await theirs.json()) as Body;
        const b = (await nobodys.json()) as Body;
        const where = `${route} ${JSON.stringify(payload)}: ${theirs.status} ${JSON.stringify(a)} vs ${nobodys.status} ${JSON.stringify(b)}`;
        expect(theirs.status, where).toBeGreaterThanOrEqual(400);
        expect(theirs.status, where).toBeLessThan(500);
        expect([theirs.status, a.error?.code, a.error?.message], where).toEqual([nobodys.status, b.error?.code, b.error?.message]);
        expect(await checksum(), where).toBe(before);
      }
    }
    // The owner still has it all.
    expect((await owner.get(`/api/trades/${owned.trade}`)).status).toBe(200);
    expect((await owner.get(`/api/advisor/conversations/${owned.conversation}`)).status).toBe(200);
  });
});

describe("same-site, cross-origin requests (a page on another port of the same host, or a sibling subdomain)", () => {
  it("every mutating route refuses them with 403 CSRF_FAILED and changes nothing, form posts and fetches alike", async () => {
    // The Lax cookie goes along with such a request (same site): only the origin check stands in the way.
    const owner = (await signUp(t, "same-site")).client;
    const owned = await ownData(owner);
    const mutating = t.app.routes
      .filter((r) => r.path.startsWith("/api/") && ["POST", "PUT", "PATCH", "DELETE"].includes(r.method) && !r.path.includes("*"))
      .map((r) => `${r.method} ${r.path}`)
      .filter((key, i, all) => all.indexOf(key) === i);
    expect(mutating.length).toBeGreaterThan(40);
    const fill = (template: string) => template.replace(/:(\w+)/g, (_m, name: string) => (name === "provider" ? "openai" : (ownIdFor(template, name, owned) ?? crypto.randomUUID())));
    const attacks: Array<{ name: string; headers: Record<string, string> }> = [
      { name: "Sec-Fetch-Site: same-site", headers: { "Sec-Fetch-Site": "same-site", Origin: "http://localhost:3101" } },
      { name: "Sec-Fetch-Site: cross-site", headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" } },
      { name: "an older browser's Origin alone", headers: { Origin: "http://localhost:3101" } },
      { name: "Origin null", headers: { Origin: "null" } },
    ];
    for (const route of mutating) {
      const [method, template] = route.split(" ") as [string, string];
      const path = `${fill(template)}${method === "DELETE" && template === "/api/accounts/:id" ? "?confirm=delete-history" : ""}`;
      for (const attack of attacks) {
        for (const body of ["form", "json"] as const) {
          const before = await checksum();
          const res = await owner.request(path, {
            method,
            headers: { ...attack.headers, ...(body === "form" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
            ...(body === "form" ? { body: "name=x&amount=999999" } : { json: PLAUSIBLE[route] ?? {} }),
          });
          const where = `${route} (${attack.name}, ${body}) -> ${res.status}`;
          expect(res.status, where).toBe(403);
          expect((await res.json()).error.code, where).toBe("CSRF_FAILED");
          expect(await checksum(), where).toBe(before);
        }
      }
    }
    // The app's own pages pass: same-origin, a typed address ("none"), or its own Origin.
    const own: Array<Record<string, string>> = [{ "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" }, { "Sec-Fetch-Site": "none" }, { Origin: "http://localhost" }];
    for (const headers of own) {
      const res = await owner.request(`/api/trades/${owned.trade}`, { method: "PATCH", headers, json: { notes: "from the app" } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });
});

describe("paged routes and the cursors they did not write", () => {
  it("answer 400 VALIDATION_ERROR naming cursor, never a 5xx, for an administrator too", async () => {
    // An administrator, so the admin lists reach their cursor (a non-admin is refused before it).
    const { client: admin, userId } = await signUp(t, "cursor-admin");
    await t.deps.db.execute(sql`update users set is_admin = true where id = ${userId}::uuid`);
    const paged = t.app.routes
      .filter((r) => r.method === "GET" && r.path.startsWith("/api/"))
      .map((r) => r.path)
      .filter((p, i, all) => all.indexOf(p) === i && ["/api/advisor/conversations", "/api/admin/users", "/api/admin/audit", "/api/billing/transactions", "/api/strategies"].includes(p));
    expect(paged).toHaveLength(5);
    await fc.assert(
      fc.asyncProperty(craftedCursor, async (cursor) => {
        for (const path of paged) {
          const res = await admin.get(`${path}?cursor=${encodeURIComponent(cursor)}`);
          const text = await res.text();
          const where = `${path} cursor ${Buffer.from(cursor, "base64").toString().slice(0, 120)} -> ${res.status} ${text.slice(0, 200)} ${errors.splice(0).join(" ").slice(0, 800)}`;
          expect(res.status, where).toBeLessThan(500);
          if (res.status !== 200) expect(JSON.parse(text).error.fields, where).toMatchObject([{ path: "cursor" }]);
        }
      }),
      { numRuns: RUNS * 4, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    // The probes' cases, and cursors a list could write, on each.
    const cursorOf = (at: string) => encodeURIComponent(btoa(JSON.stringify({ at, id: crypto.randomUUID() })));
    for (const path of paged) {
      for (const at of ["1", "2026-03-02T14:30:00+99:99", "2026-03-02T14:30:00+23", "2026-03-02 14:30:00-16"]) {
        expect((await admin.get(`${path}?cursor=${cursorOf(at)}`)).status, `${path} ${at}`).toBe(400);
      }
      for (const at of ["2026-03-02T14:30:00.123Z", "2026-03-02 14:30:00.123456+00", "2026-03-02T14:30:00+05:30", "2026-03-02T14:30:00-12"]) {
        expect((await admin.get(`${path}?cursor=${cursorOf(at)}`)).status, `${path} ${at}`).toBe(200);
      }
    }
  });
});
