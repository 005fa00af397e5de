import { describe, expect, it } from "vitest";
import { call } from "./http.ts";

// A provider key saved (sealed with WebCrypto) and opened again inside workerd, against the local stand-in.

describe("provider keys in workerd", () => {
  it("seals a key on save and opens it for the model list", async () => {
    const reg = await call("/api/auth/register", { method: "POST", json: { email: `k-${crypto.randomUUID()}@example.com`, password: "workers password" } });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
    // The stand-in fails this key's first call: saved unverified, nothing cached.
    const apiKey = `sk-flaky-${crypto.randomUUID().replaceAll("-", "")}`;
    const saved = await call("/api/advisor/provider-keys/openai", { method: "PUT", cookie, json: { apiKey } });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ provider: "openai", verified: false, keyHintTail: apiKey.slice(-4) });
    // The model list opens the sealed key and asks again: now the provider answers, so it is verified.
    const models = await call("/api/advisor/models", { cookie });
    expect(await models.json()).toMatchObject({ providers: [{ provider: "openai", verified: true, models: expect.arrayContaining(["gpt-5.1"]) }] });
    const invalid = await call("/api/advisor/market-data-key", { method: "PUT", cookie, json: { apiKey: "md-invalid401-0000" } });
    expect(invalid.status).toBe(422);
  });
});
