// Every mounted route, read from the app itself, sent generated bad input with fast-check: malformed and
// truncated JSON, wrong types, missing and extra fields, long strings, deep nesting, NUL characters and lone
// surrogates, "NaN"/"Infinity"/"1e400"/"-0", bad and foreign ids, wrong content types, empty bodies, far dates,
// unknown enum values. For every request: no 5xx, the error envelope with a named code, nothing internal in the
// body (stack, SQL, file path), and no change to any user-data table when the answer is an error. A failure
// prints fast-check's seed and path: `ROBUST_SEED=<seed>` replays it.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { createLogger } from "../../lib/log.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";

const RUNS = Number(process.env.ROBUST_RUNS ?? 12); // eslint-disable-line no-restricted-properties
const SEED = process.env.ROBUST_SEED === undefined ? undefined : Number(process.env.ROBUST_SEED); // eslint-disable-line no-restricted-properties

/** Routes that would end the fuzzing user's own session: tested by the auth tests, not here. */
const SKIP = new Set(["POST /api/auth/logout", "DELETE /api/auth/sessions", "DELETE /api/auth/sessions/:id", "POST /api/auth/password"]);

/** Every user-data table (sessions left out: each request refreshes its own). */
const TABLES = [
  "users", "email_tokens", "brokerages", "accounts", "ledger_entries", "fills", "positions", "position_fills", "csv_imports",
  "stored_keys", "wallets", "wallet_movements", "credit_holds", "credit_purchases", "subscriptions", "advisor_conversations",
  "advisor_messages", "advisor_settings", "payment_events", "billing_customers",
];

const LEAKS = /\bat \w[\w.<>]* \(|node_modules|\/work\/|\.ts:\d+|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate \w+ set\b|Failed query|params:/i;

let db: { name: string; url: string };
let t: TestApp;
let client: TestClient;
const ids: Record<string, string> = {};
/** Error lines the server logged: printed with a failure, to say what went wrong inside. */
const errors: string[] = [];

beforeAll(async () => {
  db = await createMigratedDatabase("journal_robust");
  t = await testApp(db.url, {}, { peer: "per-request", log: createLogger({ write: (line) => line.includes('"level":"error"') && errors.push(line) }) });
  ({ client } = await signUp(t, "robust"));
  const account = await (await client.post("/api/accounts", { name: "Main", currency: "USD", startingBalance: "1000", timezone: "America/New_York" })).json();
  ids.account = account.id;
  const fill = await (await client.post("/api/fills", { accountId: account.id, symbol: "AAPL", side: "buy", quantity: "1", price: "10", executedAt: "2024-01-02T14:30:00Z" })).json();
  ids.fill = fill.id ?? fill.fill?.id;
  ids.trade = ((await (await client.get("/api/trades")).json()).trades as Array<{ id: string }>)[0]!.id;
  ids.brokerage = (await (await client.post("/api/brokerages", { name: "Broker" })).json()).id;
});
afterAll(async () => {
  if (db) await dropDatabase(db.name);
});

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
    const own = ids[name.replace(/Id$/, "")] ?? ids[name];
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
        fc.asyncProperty(fc.nat(), weirdString, body, fc.dictionary(fc.constantFrom("page", "pageSize", "from", "to", "cursor", "limit", "symbol", "tag", "status", "by", "accountId", "q", "confirm"), weirdString, { maxKeys: 4 }), async (pick, raw, payload, query) => {
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
