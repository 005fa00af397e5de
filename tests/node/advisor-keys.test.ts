// Bring-your-own keys: saved after a probe against local stand-ins of each provider's real listing call,
// sealed at rest (AES-256-GCM, bound to user and provider), never shown again. Real Postgres.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { additionalData, keyRing, open } from "../../lib/crypto/envelope.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { storedKeys } from "../../lib/db/schema.ts";
import { createLogger } from "../../lib/log.ts";
import { cachedListings, providerKeyOf } from "../../lib/keys/keys.ts";
import { MODEL_PROVIDERS } from "../../lib/providers/providers.ts";
import { testApp, signUp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { inOneWindow } from "../support/window.ts";
import { EXPECTED_DEFAULTS, LISTINGS, startProviderServer, type ProviderServer } from "../support/provider-server.ts";

const url = () => inject("databaseUrl");
let stand: ProviderServer;
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  stand = await startProviderServer();
  t = await testApp(url(), stand.env, { peer: "per-request", log: createLogger({ write: (line) => lines.push(line) }) });
});
afterAll(() => stand?.close());

const secret = (tag: string) => `sk-${tag}-${crypto.randomUUID().replaceAll("-", "")}`;
const put = (client: TestClient, provider: string, body: unknown) => client.request(`/api/advisor/provider-keys/${provider}`, { method: "PUT", json: body });

async function storedRow(userId: string, provider: string) {
  const [row] = await t.deps.db
    .select()
    .from(storedKeys)
    .where(and(eq(storedKeys.userId, userId), eq(storedKeys.provider, provider as "openai")));
  return row;
}

describe("PUT /api/advisor/provider-keys/:provider", () => {
  it.each(MODEL_PROVIDERS)("%s: a working key is stored sealed, verified, with the listing's preferred model; only its last four characters come back", async (provider) => {
    const { client, userId } = await signUp(t, provider);
    const apiKey = secret("good");
    const res = await put(client, provider, { apiKey });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      provider,
      keyHintTail: apiKey.slice(-4),
      defaultModel: EXPECTED_DEFAULTS[provider],
      verified: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain(apiKey.slice(0, -4));
    // The stand-in saw the key in the provider's own header.
    expect(stand.requests.some((r) => r.key === apiKey)).toBe(true);
    const row = await storedRow(userId, provider);
    expect(row!.ciphertext).not.toContain(apiKey);
    expect(Buffer.from(row!.ciphertext, "base64").toString("latin1")).not.toContain(apiKey);
    expect(await providerKeyOf(t.deps, userId, provider)).toBe(apiKey);
    // Listed back the same way.
    const list = await (await client.get("/api/advisor/provider-keys")).json();
    expect(list).toEqual({ keys: [body] });
  });

  it.each(MODEL_PROVIDERS.flatMap((p) => [[p, "invalid401"], [p, "invalid403"]] as const))(
    "%s: a %s answer refuses the save with 422 PROVIDER_KEY_INVALID and leaves the stored key as it was",
    async (provider, kind) => {
      const { client, userId } = await signUp(t, provider);
      const first = secret("good");
      expect((await put(client, provider, { apiKey: first })).status).toBe(200);
      const before = await storedRow(userId, provider);
      const res = await put(client, provider, { apiKey: secret(kind) });
      expect(res.status).toBe(422);
      expect((await res.json()).error).toMatchObject({ code: "PROVIDER_KEY_INVALID", message: expect.stringContaining("refused this key") });
      expect(await storedRow(userId, provider)).toEqual(before);
      // And with none stored, nothing is stored.
      const other = await signUp(t, provider);
      expect((await put(other.client, provider, { apiKey: secret(kind) })).status).toBe(422);
      expect(await storedRow(other.userId, provider)).toBeUndefined();
    },
  );

  it.each(MODEL_PROVIDERS.flatMap((p) => [[p, "fail500"], [p, "reset"], [p, "garbage"]] as const))(
    "%s: a %s answer stores the key unverified, with the provider's fallback model",
    async (provider, kind) => {
      const { client, userId } = await signUp(t, provider);
      const apiKey = secret(kind);
      const res = await put(client, provider, { apiKey });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ provider, verified: false, keyHintTail: apiKey.slice(-4) });
      expect(await providerKeyOf(t.deps, userId, provider)).toBe(apiKey);
    },
  );

  it("a provider that never answers: every key is stored unverified within 6 seconds", async () => {
    const users = await Promise.all(MODEL_PROVIDERS.map((p) => signUp(t, p)));
    const started = performance.now();
    const answers = await Promise.all(MODEL_PROVIDERS.map((p, i) => put(users[i]!.client, p, { apiKey: secret("hang") })));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(6000);
    expect(elapsed).toBeGreaterThan(4900);
    for (const res of answers) expect(await res.json()).toMatchObject({ verified: false });
  }, 20_000);

  it("keeps an explicit default model when the listing has it, refuses one it does not", async () => {
    const { client, userId } = await signUp(t, "model");
    const ok = await put(client, "openai", { apiKey: secret("good"), defaultModel: "gpt-4o-mini" });
    expect(await ok.json()).toMatchObject({ defaultModel: "gpt-4o-mini" });
    const bad = await put(client, "openai", { apiKey: secret("good"), defaultModel: "gpt-9-imaginary" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual([{ path: "defaultModel", message: "is not a model this key can use" }]);
    expect((await storedRow(userId, "openai"))!.defaultModel).toBe("gpt-4o-mini");
    // Replacing the key without a model keeps the user's choice when the new key can use it.
    const replaced = await put(client, "openai", { apiKey: secret("good2") });
    expect(await replaced.json()).toMatchObject({ defaultModel: "gpt-4o-mini" });
  });

  it("answers 404 for an unknown provider and 400 for a bad body, storing nothing", async () => {
    const { client, userId } = await signUp(t, "bad");
    expect((await put(client, "mistral", { apiKey: secret("good") })).status).toBe(404);
    for (const body of [{}, { apiKey: 12345678 }, { apiKey: "short" }, { apiKey: "has a space inside it" }, { apiKey: secret("good"), extra: 1 }]) {
      const res = await put(client, "openai", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
    expect(rowsOf(await t.deps.db.execute(sql`select 1 from stored_keys where user_id = ${userId}`))).toEqual([]);
  });

  it("allows 10 saves an hour per user, then 429 with Retry-After", async () => {
    // An hour aligned to the clock: run once more, by a new user, when the burst straddled its edge.
    const { client, allowed, limited } = await inOneWindow(3600, async () => {
      const { client } = await signUp(t, "limit");
      const allowed: number[] = [];
      for (let i = 0; i < 10; i++) allowed.push((await put(client, "anthropic", { apiKey: secret(`fail500-${i}`) })).status);
      return { client, allowed, limited: await put(client, "anthropic", { apiKey: secret("good") }) };
    });
    expect(allowed).toEqual(Array(10).fill(200));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The market-data key has its own allowance.
    expect((await client.request("/api/advisor/market-data-key", { method: "PUT", json: { apiKey: secret("good") } })).status).toBe(200);
  });

  it("needs a session", async () => {
    const anonymous = t.client();
    expect((await put(anonymous, "openai", { apiKey: secret("good") })).status).toBe(401);
    expect((await anonymous.get("/api/advisor/provider-keys")).status).toBe(401);
    expect((await anonymous.get("/api/advisor/market-data-key")).status).toBe(401);
  });
});

describe("PATCH, DELETE and the model list", () => {
  it("changes the default model only to one the key can use; a provider that is down does not block it", async () => {
    const { client } = await signUp(t, "patch");
    await put(client, "gemini", { apiKey: secret("good") });
    const patch = (body: unknown) => client.request("/api/advisor/provider-keys/gemini", { method: "PATCH", json: body });
    expect(await (await patch({ defaultModel: "gemini-2.5-flash" })).json()).toMatchObject({ defaultModel: "gemini-2.5-flash" });
    const unknown = await patch({ defaultModel: "gemini-99-ultra" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.fields[0].path).toBe("defaultModel");
    expect((await patch({ defaultModel: "x", extra: true })).status).toBe(400);
    expect((await client.request("/api/advisor/provider-keys/anthropic", { method: "PATCH", json: { defaultModel: "x" } })).status).toBe(404);

    const down = await signUp(t, "patch-down");
    await put(down.client, "openai", { apiKey: secret("fail500") });
    const accepted = await down.client.request("/api/advisor/provider-keys/openai", { method: "PATCH", json: { defaultModel: "gpt-4o" } });
    expect(await accepted.json()).toMatchObject({ defaultModel: "gpt-4o", verified: false });
  });

  it("lists each key's models (cached), marks a key the provider now refuses, and deletes", async () => {
    const { client } = await signUp(t, "models");
    await put(client, "openai", { apiKey: secret("good") });
    await put(client, "openrouter", { apiKey: secret("fail500") });
    const calls = stand.requests.length;
    const models = await (await client.get("/api/advisor/models")).json();
    expect(models).toEqual({
      providers: [
        // Chat models only: the stand-in's embeddings, image and code models are left out.
        { provider: "openai", defaultModel: "gpt-5.1", verified: true, models: LISTINGS.openai.filter((m) => !/embedding|dall-e|codex/.test(m)).sort() },
        { provider: "openrouter", defaultModel: "openai/gpt-5", verified: false, models: null },
      ],
    });
    // OpenAI's listing came from the save's probe (cached); OpenRouter's was asked again (key and models).
    expect(stand.requests.slice(calls).map((r) => r.path).sort()).toEqual(["/openrouter/api/v1/key", "/openrouter/api/v1/models"]);
    expect(cachedListings()).toBeGreaterThan(0);

    expect((await client.delete("/api/advisor/provider-keys/openai")).status).toBe(204);
    expect((await client.delete("/api/advisor/provider-keys/openai")).status).toBe(404);
    expect((await (await client.get("/api/advisor/provider-keys")).json()).keys.map((k: { provider: string }) => k.provider)).toEqual(["openrouter"]);
  });
});

describe("the market-data key", () => {
  const mdk = (client: TestClient, apiKey: string) => client.request("/api/advisor/market-data-key", { method: "PUT", json: { apiKey } });

  it("GET says configured false until one is saved; save, replace, refuse, remove", async () => {
    const { client, userId } = await signUp(t, "md");
    expect(await (await client.get("/api/advisor/market-data-key")).json()).toEqual({ configured: false });
    const apiKey = secret("good");
    expect(await (await mdk(client, apiKey)).json()).toEqual({ configured: true, keyHintTail: apiKey.slice(-4), verified: true });
    expect(stand.requests.at(-1)).toMatchObject({ path: "/finnhub/api/v1/quote", key: apiKey });
    const refused = await mdk(client, secret("invalid401"));
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.code).toBe("MARKET_DATA_KEY_INVALID");
    expect((await mdk(client, secret("invalid403"))).status).toBe(422);
    expect(await providerKeyOf(t.deps, userId, "market-data")).toBe(apiKey);
    expect(await (await mdk(client, secret("fail500"))).json()).toMatchObject({ configured: true, verified: false });
    expect(await (await client.get("/api/advisor/market-data-key")).json()).toMatchObject({ configured: true, verified: false });
    expect((await client.delete("/api/advisor/market-data-key")).status).toBe(204);
    expect(await (await client.get("/api/advisor/market-data-key")).json()).toEqual({ configured: false });
  });
});

describe("secrecy", () => {
  it("a sealed key copied to another user's row, or another provider's, does not open", async () => {
    const alice = await signUp(t, "alice");
    const bob = await signUp(t, "bob");
    await put(alice.client, "openai", { apiKey: secret("good") });
    await put(bob.client, "openai", { apiKey: secret("good") });
    const stolen = (await storedRow(alice.userId, "openai"))!;
    await t.deps.db.update(storedKeys).set({ ciphertext: stolen.ciphertext }).where(and(eq(storedKeys.userId, bob.userId), eq(storedKeys.provider, "openai")));
    await expect(providerKeyOf(t.deps, bob.userId, "openai")).rejects.toThrow(/does not decrypt/);
    const ring = await keyRing(t.config);
    await expect(open(ring, stolen.ciphertext, additionalData(alice.userId, "anthropic"))).rejects.toThrow(/does not decrypt/);
    // Bob's model list says so instead of failing.
    const models = await (await bob.client.get("/api/advisor/models")).json();
    expect(models.providers[0]).toMatchObject({ provider: "openai", models: null });
  });

  it("no key's plaintext reaches a log line", async () => {
    const { client } = await signUp(t, "logs");
    const keys = [secret("good"), secret("fail500"), secret("invalid401"), secret("garbage")];
    for (const [i, apiKey] of keys.entries()) await put(client, MODEL_PROVIDERS[i]!, { apiKey });
    await mdk(client, secret("fail500"));
    await client.get("/api/advisor/models");
    expect(lines.length).toBeGreaterThan(0); // the unverified saves were logged
    for (const apiKey of keys) for (const line of lines) expect(line).not.toContain(apiKey.slice(3, -4));
  });

  function mdk(client: TestClient, apiKey: string) {
    return client.request("/api/advisor/market-data-key", { method: "PUT", json: { apiKey } });
  }
});
