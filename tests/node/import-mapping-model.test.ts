// A column mapping suggested by the trader's own model (lib/advisor/import-mapping.ts; docs/imports.md "Any
// CSV"), against the providers' stand-in: it sees the header and the first five rows only, what it answers is
// kept only where it names a real column or a known option, the mapping it gives previews the file, and with
// billing on the call is metered like a turn.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getWallet } from "../../lib/billing/wallet.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { billingEnv, startPaymentServer, type PaymentServer } from "../support/payment-server.ts";
import { startProviderServer, type ProviderServer } from "../support/provider-server.ts";

let stand: ProviderServer;
let payments: PaymentServer;
let t: TestApp;
let metered: TestApp;
beforeAll(async () => {
  stand = await startProviderServer();
  payments = await startPaymentServer();
  t = await testApp(inject("databaseUrl"), stand.env, { peer: "per-request" });
  metered = await testApp(inject("databaseUrl"), { ...stand.env, ...billingEnv(payments) }, { peer: "per-request" });
});
afterAll(async () => {
  await stand?.close();
  await payments?.close();
});

/** A German broker's layout the rules cannot fully read: semicolons, day-first dates, decimal commas. */
const HEADER = ["Ausführung", "Wertpapier", "Richtung", "Stück", "Kurs", "Gebühr", "Auftrag"];
const ROWS = [
  ["03.02.2026 15:31", "AAPL", "Kauf", "10", "185,20", "1,00", "A1"],
  ["03.02.2026 16:02", "AAPL", "Verkauf", "10", "187,05", "1,00", "A2"],
  ["04.02.2026 15:45", "MSFT", "Kauf", "5", "410,10", "1,00", "A3"],
  ["04.02.2026 19:50", "MSFT", "Verkauf", "5", "405,00", "1,00", "A4"],
  ["05.02.2026 15:40", "NVDA", "Kauf", "2", "700,00", "1,00", "A5"],
  ["05.02.2026 16:40", "NVDA", "Verkauf", "2", "712,50", "1,00", "SIXTH-ROW-SECRET"],
];
const answerOf = (value: unknown) => `#answer:${Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")}`;
/** The rows with the stand-in's script in the first row's last cell (where a model would only see a value). */
const scripted = (answer: unknown) => [[...ROWS[0]!.slice(0, -1), answerOf(answer)], ...ROWS.slice(1)];

const MODEL_ANSWER = {
  mapping: { executedAt: "Ausführung", symbol: "wertpapier", side: "Richtung", quantity: "Stück", price: "Kurs", fees: "Gebühr", executionId: "Auftrag", currency: "Währung", banana: "Kurs" },
  options: { dateFormat: "DD/MM/YYYY", numberFormat: "1.234,56", delimiter: "|", sideFromQuantitySign: true },
  notes: ["Kauf is a buy and Verkauf a sell."],
};

async function trader(app: TestApp, withKey = true) {
  const { client, userId } = await signUp(app, "mapping-model");
  if (withKey) expect((await client.request("/api/advisor/provider-keys/openai", { method: "PUT", json: { apiKey: `sk-good-${crypto.randomUUID().replaceAll("-", "")}` } })).status).toBe(200);
  return { client, userId };
}

describe("POST /api/advisor/import-mapping", () => {
  it("suggests the mapping from the header and the first five rows only, keeping what names a real column or a known option, and the mapping previews the file", async () => {
    const { client } = await trader(t);
    const before = stand.streams.length;
    const res = await client.post("/api/advisor/import-mapping", { provider: "openai", header: HEADER, rows: scripted(MODEL_ANSWER) });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      // Currency names no column of the file, banana no field, and the side column is there, so sideFromQuantitySign is dropped.
      mapping: { executedAt: "Ausführung", symbol: "Wertpapier", side: "Richtung", quantity: "Stück", price: "Kurs", fees: "Gebühr", executionId: "Auftrag" },
      options: { dateFormat: "DD/MM/YYYY", numberFormat: "1.234,56" },
      notes: [expect.stringMatching(/^Suggested by gpt-5\.1 from the column names and the first 5 rows/), "Kauf is a buy and Verkauf a sell."],
      source: "model",
      savedAt: null,
      provider: "openai",
      model: "gpt-5.1",
    });
    // One call, and exactly this body: the instructions, then the header and the first five rows, nothing else
    // (no account, email, other rows, or any other field of the journal). The sixth row never left the server.
    expect(stand.streams.length).toBe(before + 1);
    const sent = stand.streams.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    const shown = scripted(MODEL_ANSWER).slice(0, 5);
    expect(sent).toEqual({
      model: "gpt-5.1",
      max_completion_tokens: 1500,
      messages: [
        { role: "developer", content: expect.stringMatching(/^You map the columns of a broker's CSV export of trade executions/) },
        { role: "user", content: `Header: ${JSON.stringify(HEADER)}\nFirst rows:\n${shown.map((r) => JSON.stringify(r)).join("\n")}` },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    // The instructions are the same for every trader: none of this one's words in them.
    expect(sent.messages[0]!.content).not.toMatch(/Wertpapier|AAPL|mapping-model|@/);
    expect(JSON.stringify(sent)).not.toContain("SIXTH-ROW-SECRET");

    // The trader confirms it: the file previews with that mapping (Kauf and Verkauf given as the sides).
    const account = (await (await client.post("/api/accounts", { name: "Depot", currency: "USD" })).json()).id as string;
    const csv = [HEADER, ...ROWS].map((r) => r.join(";")).join("\n");
    const form = new FormData();
    form.set("file", new Blob([csv]), "depot.csv");
    form.set("request", JSON.stringify({ accountId: account, mapping: body.mapping, options: { ...body.options, delimiter: ";", timezone: "Europe/Berlin", sides: { buy: ["Kauf"], sell: ["Verkauf"] } } }));
    const preview = await client.request("/api/csv-import/preview", { method: "POST", body: form });
    expect(preview.status, await preview.clone().text()).toBe(201);
    expect((await preview.json()).summary).toMatchObject({ rows: 6, valid: 6 });
  });

  it("refuses without a key of that provider, an unknown provider, and an answer that is not a mapping", async () => {
    const keyless = (await trader(t, false)).client;
    const none = await keyless.post("/api/advisor/import-mapping", { provider: "openai", header: HEADER, rows: ROWS });
    expect(none.status).toBe(409);
    expect((await none.json()).error.code).toBe("PROVIDER_KEY_REQUIRED");
    const { client } = await trader(t);
    const unknown = await client.post("/api/advisor/import-mapping", { provider: "acme", header: HEADER, rows: ROWS });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.fields[0].path).toBe("provider");
    for (const answer of ["I would rather not say.", { mapping: { symbol: "Ticker" } }]) {
      const res = await client.post("/api/advisor/import-mapping", { provider: "openai", header: HEADER, rows: scripted(answer) });
      expect(res.status).toBe(503);
      expect((await res.json()).error.message).toMatch(/^OpenAI's answer was not a mapping of this file's columns/);
    }
  });

  it("with billing on: charges the call's tokens like a turn, and refuses without credits", async () => {
    const poor = await trader(metered);
    const refused = await poor.client.post("/api/advisor/import-mapping", { provider: "openai", header: HEADER, rows: scripted(MODEL_ANSWER) });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe("INSUFFICIENT_CREDITS");
    const rich = await trader(metered);
    await metered.deps.db.execute(sql`select wallet_apply(${rich.userId}::uuid, 'admin_grant', 5000::bigint, 0, null, 'test', null)`);
    const res = await rich.client.post("/api/advisor/import-mapping", { provider: "openai", header: HEADER, rows: scripted(MODEL_ANSWER) });
    expect(res.status, await res.clone().text()).toBe(200);
    const wallet = await getWallet(metered.deps, rich.userId);
    expect(wallet.reserved).toBe(0);
    expect(wallet.balance).toBeLessThan(5000);
    expect(wallet.balance).toBeGreaterThan(4000);
  });
});
