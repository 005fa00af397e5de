// Backend analytics (lib/analytics): the redaction guard on every value, the events of a real session sent
// to a local ingestion stand-in with an opaque surrogate and nothing personal or from the journal (asserted
// on the raw bodies the host received), nothing at all without ANALYTICS_API_KEY, and the 3 s flush bound
// on SIGTERM of the real Node entrypoint. Real Postgres.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { redactProperties } from "../../lib/analytics/redact.ts";
import { createAnalytics, type Analytics } from "../../lib/analytics/index.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createLogger } from "../../lib/log.ts";
import { startAnalyticsIngestServer, type AnalyticsIngestServer } from "../support/analytics-ingest-server.ts";
import { signUp, testApp } from "../support/app.ts";
import { PASSWORD } from "../support/client.ts";
import { billingEnv, paidSession, signedEvent, startPaymentServer } from "../support/payment-server.ts";
import { GENERIC_SAMPLE } from "../support/csv.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv, testConfig } from "../support/env.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { parseSse } from "../support/sse.ts";

const url = () => inject("databaseUrl");
let ingest: AnalyticsIngestServer;
let providers: ProviderServer;
beforeAll(async () => {
  ingest = await startAnalyticsIngestServer();
  providers = await startProviderServer();
});
afterAll(async () => {
  await ingest?.close();
  await providers?.close();
});

const MARKET_SECRET = "mdq7Zr2Lk9Pw4Xv8";
const PAYMENT_SECRET = "sk_test_51Pq8rT2sUv4wXy6zAb8cDe0fGh";
const analyticsEnv = () => ({ ANALYTICS_API_KEY: "phc_projectkey123", ANALYTICS_HOST: ingest.url, ANALYTICS_ENVIRONMENT: "test-suite" });

describe("the redaction guard", () => {
  const secrets = [MARKET_SECRET, PAYMENT_SECRET];
  it.each([
    ["an OpenAI key", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"],
    ["an Anthropic key", "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed"],
    ["a Gemini key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"],
    ["an OpenRouter key", `sk-or-v1-${"0123456789abcdef".repeat(4)}`],
    ["the configured market-data secret", MARKET_SECRET],
    ["the configured payment secret", PAYMENT_SECRET],
    ["a live payment key", "sk_live_51HxYzAbCdEfGhIjKlMnOp"],
    ["a webhook secret", "whsec_5f1e2d3c4b5a69788796a5b4c3d2e1f0"],
    ["a bearer token", "Bearer abcDEF123ghiJKL456"],
    ["a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXBhcnQ"],
    ["an email address", "jane.trader+journal@example.co.uk"],
    ["an upload file name", "IBKR_trades_2024-Q3.csv"],
    ["an image file name", "chart-screenshot.png"],
  ])("scrubs %s wherever it sits in a value", (_name, secret) => {
    const out = JSON.stringify(redactProperties({ model: `before ${secret} after`, nested: { list: [secret] } }, secrets));
    expect(out).not.toContain(secret);
    expect(out).toMatch(/before (Bearer )?\[(redacted|email|file)\] after/);
    expect(out).toContain("after");
  });

  it.each(["apiKey", "password", "client_secret", "sessionId", "authorization", "email", "fileName", "refreshToken", "key"])(
    "replaces the whole value of a property named %s",
    (name) => {
      expect(redactProperties({ [name]: "plain words 42" })).toEqual({ [name]: "[redacted]" });
    },
  );

  it("keeps labels, counts and flags as they are", () => {
    const props = { provider: "openai", model: "gpt-5-mini", rows: 10000, credits: 12, verified: true, plan: null, format: "ibkr-flex", inputTokens: 1200, outputTokens: 80 };
    expect(redactProperties(props)).toEqual(props);
  });

  it("caps long strings and drops values that are not data", () => {
    const out = redactProperties({ long: "word ".repeat(100), nan: Number.NaN, fn: (() => 1) as unknown });
    expect((out.long as string).length).toBeLessThanOrEqual(203);
    expect(out.nan).toBeNull();
    expect(out.fn).toBeNull();
  });
});

describe("events of a session", () => {
  it("arrive batched at ANALYTICS_HOST with the surrogate, the environment, and no personal or journal data", async () => {
    const t = await testApp(url(), { ...analyticsEnv(), ...providers.env, STOCK_QUOTE_API_KEY: MARKET_SECRET }, { peer: "per-request" });
    const before = ingest.requests.length;
    const { client, userId } = await signUp(t, "analytics");
    const email = (await (await client.get("/api/auth/me")).json()).user.email as string;
    const signIn = t.client();
    expect((await signIn.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    const account = await (await client.post("/api/accounts", { name: "Secret Swing Account", currency: "USD", startingBalance: "5000" })).json();
    const form = new FormData();
    form.set("file", new Blob([GENERIC_SAMPLE]), `${email}-statement.csv`);
    form.set("request", JSON.stringify({ accountId: account.id, presetId: "generic" }));
    const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
    expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    expect((await client.post(`/api/csv-import/${preview.importId}/undo`, {})).status).toBe(200);
    const openaiKey = `sk-proj-${crypto.randomUUID().replaceAll("-", "")}`;
    expect((await client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: openaiKey } })).status).toBe(200);
    await t.settled();

    const mine = ingest.requests.slice(before);
    // Each event's random uuid and its time can hold any digits ("d7500084-..." holds 5000): they are checked
    // for their shape, and the search runs on everything else.
    const raw = mine
      .map((r) => r.rawBody.toString("utf8"))
      .join("\n")
      .replace(/"uuid":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"uuid":"<uuid>"')
      .replace(/"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, '"timestamp":"<time>"');
    expect(raw).not.toMatch(/"uuid":"(?!<uuid>)|"timestamp":"(?!<time>)/);
    for (const leak of [email, userId, account.id, "Secret Swing Account", "statement.csv", "AAPL", "ESZ26", "170.5", openaiKey, MARKET_SECRET, "5000"]) {
      expect(raw, `the bodies sent to the host contain ${leak}`).not.toContain(leak);
    }
    expect(mine.every((r) => r.method === "POST" && r.path === "/batch/")).toBe(true);
    const sent = mine.map((r) => JSON.parse(r.decoded) as { api_key: string; batch: Array<{ event: string; distinct_id: string; properties: Record<string, unknown> }> });
    expect(sent.every((b) => b.api_key === "phc_projectkey123")).toBe(true);
    const events = sent.flatMap((b) => b.batch);
    const byName = new Map(events.map((e) => [e.event, e]));
    expect([...byName.keys()].sort()).toEqual(
      ["account created", "import committed", "import previewed", "import undone", "provider key saved", "user signed in", "user signed up"].sort(),
    );
    // One surrogate for the user, not their id, stable across requests and sessions.
    const surrogates = new Set(events.map((e) => e.distinct_id));
    expect(surrogates.size).toBe(1);
    expect([...surrogates][0]).toMatch(/^u_[A-Za-z0-9_-]{24}$/);
    expect(events.every((e) => e.properties.environment === "test-suite" && e.properties.$process_person_profile === false)).toBe(true);
    expect(byName.get("import previewed")!.properties).toMatchObject({ format: "generic", rows: 4, fills: 4, duplicates: 0, errors: 0 });
    expect(byName.get("import committed")!.properties).toMatchObject({ fills: 4 });
    expect(byName.get("import undone")!.properties).toMatchObject({ fills: 4 });
    expect(byName.get("provider key saved")!.properties).toMatchObject({ provider: "openai", verified: true });
    expect(byName.get("account created")!.properties).toMatchObject({ currency: "USD", hasBrokerage: false });
    expect(byName.get("user signed up")!.properties).toMatchObject({ verified: false });
  });

  it("billing: checkout started, credits purchased once per payment, plan changed only when it moves", async () => {
    const payments = await startPaymentServer();
    try {
      const t = await testApp(url(), { ...analyticsEnv(), ...billingEnv(payments) }, { peer: "per-request" });
      const before = ingest.events.length;
      const { client, userId } = await signUp(t, "buyer");
      const res = await client.post("/api/billing/checkout", { packId: "starter" });
      expect(res.status).toBe(200);
      const sessionId = ((await res.json()) as { url: string }).url.split("/").pop()!;
      const paid = await signedEvent("checkout.session.completed", paidSession(payments, sessionId));
      const webhook = (body: string, signature: string) =>
        t.client().request("/api/billing/webhook", { method: "POST", body, headers: { "Content-Type": "application/json", "Stripe-Signature": signature } });
      // Delivered twice (the provider retries): credited, and counted, once.
      expect((await webhook(paid.body, paid.signature)).status).toBe(200);
      expect((await webhook(paid.body, paid.signature)).status).toBe(200);
      const now = Math.floor(Date.now() / 1000);
      for (const [status, at] of [["active", now], ["past_due", now + 10], ["canceled", now + 20]] as const) {
        const e = await signedEvent("customer.subscription.updated", { id: `sub_${userId}`, object: "subscription", customer: "cus_x", status, metadata: { userId } }, { created: at });
        expect((await webhook(e.body, e.signature)).status).toBe(200);
      }
      await t.settled();
      const mine = ingest.events.slice(before).filter((e) => !e.event.startsWith("user "));
      expect(mine.map((e) => [e.event, e.properties.pack ?? e.properties.plan, e.properties.credits ?? null])).toEqual([
        ["checkout started", "starter", 500],
        ["credits purchased", "starter", 500],
        ["plan changed", "pro", null],
        ["plan changed", "free", null],
      ]);
      const raw = ingest.requests.map((r) => r.decoded).join("\n");
      for (const leak of [sessionId, "cus_x", "sk_test_journal", "whsec_test_journal", userId]) expect(raw).not.toContain(leak);
    } finally {
      await payments.close();
    }
  });

  it("an advisor turn is counted with its provider, model, tokens and credits, and without the question or the answer", async () => {
    const t = await testApp(url(), { ...analyticsEnv(), ...providers.env }, { peer: "per-request" });
    const { client } = await signUp(t, "asker");
    expect((await client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: `sk-proj-${crypto.randomUUID().replaceAll("-", "")}` } })).status).toBe(200);
    const conversation = (await (await client.post("/api/advisor/conversations", {})).json()) as { id: string; model: string };
    const before = ingest.requests.length;
    const question = "How did my breakout trades do, secretly?";
    const res = await client.post(`/api/advisor/conversations/${conversation.id}/turns`, { clientMessageId: crypto.randomUUID(), text: question });
    expect(res.status).toBe(200);
    const answer = parseSse(await res.text()).events;
    expect(answer.at(-1)!.event).toBe("done");
    await t.settled();
    const mine = ingest.requests.slice(before);
    const events = mine.flatMap((r) => (JSON.parse(r.decoded) as { batch: Array<{ event: string; properties: Record<string, unknown> }> }).batch);
    const turn = events.find((e) => e.event === "advisor turn")!;
    expect(turn.properties).toMatchObject({ provider: "openai", model: conversation.model, status: "complete", credits: null, toolCalls: expect.any(Number) });
    expect(turn.properties.inputTokens).toBeGreaterThan(0);
    const raw = mine.map((r) => r.rawBody.toString("utf8")).join("\n");
    expect(raw).not.toContain("breakout trades");
    const text = answer.filter((e) => e.event === "delta").map((e) => String(e.data.text)).join("");
    if (text.length > 12) expect(raw).not.toContain(text.slice(0, 12));
  });

  it("a Free user at the account cap is counted as a tier limit hit", async () => {
    const t = await testApp(url(), { ...analyticsEnv(), FEATURE_GATING: "true" }, { peer: "per-request" });
    const before = ingest.events.length;
    const { client } = await signUp(t, "capped");
    expect((await client.post("/api/accounts", { name: "One", currency: "USD" })).status).toBe(201);
    expect((await client.post("/api/accounts", { name: "Two", currency: "USD" })).status).toBe(403);
    await t.settled();
    expect(ingest.events.slice(before).filter((e) => e.event === "tier limit hit").map((e) => e.properties.limit)).toEqual(["accounts"]);
  });

  it("without ANALYTICS_API_KEY nothing is sent, even with a host configured", async () => {
    const t = await testApp(url(), { ANALYTICS_HOST: ingest.url, ANALYTICS_ENVIRONMENT: "test-suite" }, { peer: "per-request" });
    expect(t.deps.analytics).toBeUndefined();
    const before = ingest.requests.length;
    const { client } = await signUp(t, "silent");
    await client.post("/api/accounts", { name: "Quiet", currency: "USD" });
    await t.settled();
    expect(ingest.requests.length).toBe(before);
  });

  it("a host that is down costs a logged warning, never a failed request", async () => {
    const lines: string[] = [];
    const t = await testApp(url(), { ANALYTICS_API_KEY: "phc_x", ANALYTICS_HOST: "http://127.0.0.1:9" }, { peer: "per-request", log: createLogger({ write: (l) => lines.push(l) }) });
    const { client } = await signUp(t, "downhost");
    expect((await client.post("/api/accounts", { name: "Fine", currency: "USD" })).status).toBe(201);
    await t.settled();
    expect(lines.some((l) => l.includes("analytics batch not sent"))).toBe(true);
  });
});

describe("flushing", () => {
  const client = (schedule?: (f: () => Promise<void>) => void): Analytics =>
    createAnalytics(testConfig(analyticsEnv()), { fetch: globalThis.fetch, log: createLogger({ silent: true }), now: () => new Date(), ...(schedule ? { schedule } : {}) })!;

  it("capture() only queues; one flush sends the queue as one batch", async () => {
    const flushes: Array<() => Promise<void>> = [];
    const queued = client((f) => flushes.push(f));
    const before = ingest.requests.length;
    for (let i = 0; i < 3; i++) queued.capture("import committed", "user-1", { fills: i });
    expect(ingest.requests.length).toBe(before);
    // One flush scheduled for the three events, not one per event.
    expect(flushes).toHaveLength(1);
    await flushes[0]!();
    expect(ingest.requests.length).toBe(before + 1);
    expect(JSON.parse(ingest.requests.at(-1)!.decoded).batch.map((e: { properties: { fills: number } }) => e.properties.fills)).toEqual([0, 1, 2]);
  });

  it("close() sends what is queued, and gives up after its bound when the host hangs", async () => {
    const queued = client(() => {});
    const before = ingest.events.length;
    queued.capture("user signed in", crypto.randomUUID(), {});
    await queued.close(3000);
    expect(ingest.events.length).toBe(before + 1);

    ingest.stall(true);
    try {
      const hanging = client(() => {});
      hanging.capture("user signed in", crypto.randomUUID(), {});
      const started = performance.now();
      await hanging.close(500);
      const took = performance.now() - started;
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(2000);
    } finally {
      ingest.stall(false);
    }
  });

  it("the Node entrypoint flushes on SIGTERM and exits within the 3 s bound when the host hangs", async () => {
    ingest.stall(true);
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...analyticsEnv(), DATABASE_URL: url() });
    try {
      const before = ingest.requests.length;
      const res = await fetch(`${server.url}/api/auth/register`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: `sigterm-${crypto.randomUUID()}@example.com`, password: PASSWORD }),
      });
      expect(res.status).toBe(201);
      const started = performance.now();
      const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
      server.child.kill("SIGTERM");
      const code = await exited;
      const took = performance.now() - started;
      expect(code).toBe(0);
      // The queued event was attempted (the host got it), and the stop waited for it no longer than the bound.
      expect(ingest.requests.length).toBeGreaterThan(before);
      expect(took).toBeLessThan(3000 + 1500);
    } finally {
      ingest.stall(false);
      await server.stop();
    }
  });
});
