// The advisor's conversations and turns against the providers' stand-in (tests/support/provider-server.ts:
// each provider's streaming wire format, scripted by directives in the message), on the real Postgres:
// event order and content, grounding tools fed the trader's real figures, replay, one turn at a time,
// disconnects, the turn budget, provider failures, and metering.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { creditsFor, priceOf } from "../../lib/advisor/prices.ts";
import { getWallet, releaseExpiredHolds } from "../../lib/billing/wallet.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { rowsOf } from "../../lib/db/rows.ts";
import { createLogger } from "../../lib/log.ts";
import { testApp, signUp, type TestApp } from "../support/app.ts";
import type { TestClient } from "../support/client.ts";
import { billingEnv, startPaymentServer, type PaymentServer } from "../support/payment-server.ts";
import { EXPECTED_DEFAULTS, startProviderServer, type ProviderServer } from "../support/provider-server.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { parseSse, readUntil } from "../support/sse.ts";
import { inOneWindow } from "../support/window.ts";

const url = () => inject("databaseUrl");
let stand: ProviderServer;
let payments: PaymentServer;
let t: TestApp;
let metered: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  stand = await startProviderServer();
  payments = await startPaymentServer();
  t = await testApp(url(), { ...stand.env, ADVISOR_TURN_BUDGET_MS: "3000", ADVISOR_KEEPALIVE_MS: "200", ADVISOR_CLAIM_LEASE_MS: "1000" }, { peer: "per-request", log: createLogger({ write: (l) => lines.push(l) }) });
  metered = await testApp(url(), { ...stand.env, ...billingEnv(payments), ADVISOR_TURN_BUDGET_MS: "3000" }, { peer: "per-request" });
});
afterAll(async () => {
  await stand?.close();
  await payments?.close();
});

const apiKey = (tag = "good") => `sk-${tag}-${crypto.randomUUID().replaceAll("-", "")}`;

async function trader(app: TestApp, provider = "openai", options: { share?: boolean; key?: string } = {}) {
  const { client, userId } = await signUp(app, "advisor");
  const saved = await client.request(`/api/advisor/provider-keys/${provider}`, { method: "PUT", json: { apiKey: options.key ?? apiKey() } });
  expect(saved.status).toBe(200);
  if (options.share) expect((await client.request("/api/advisor/settings", { method: "PUT", json: { shareJournal: true } })).status).toBe(200);
  const created = await client.post("/api/advisor/conversations", {});
  expect(created.status).toBe(201);
  return { client, userId, conversation: (await created.json()) as { id: string; provider: string; model: string; title: string } };
}

const ask = (client: TestClient, conversationId: string, text: string, clientMessageId: string = crypto.randomUUID()) =>
  client.post(`/api/advisor/conversations/${conversationId}/turns`, { clientMessageId, text });

async function turn(client: TestClient, conversationId: string, text: string, clientMessageId?: string) {
  const res = await ask(client, conversationId, text, clientMessageId);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
  return parseSse(await res.text());
}

const names = (events: Array<{ event: string }>) => events.map((e) => e.event).filter((e, i, all) => e !== "delta" || all[i - 1] !== "delta");
const textOf = (events: Array<{ event: string; data: Record<string, unknown> }>) => events.filter((e) => e.event === "delta").map((e) => e.data.text).join("");

async function messages(client: TestClient, id: string) {
  return (await (await client.get(`/api/advisor/conversations/${id}`)).json()).messages as Array<Record<string, unknown>>;
}

describe("conversations", () => {
  it("are created with the user's key's provider and default model, listed newest first, renamed, deleted; another user's are 404", async () => {
    const { client, conversation } = await trader(t, "anthropic");
    expect(conversation).toMatchObject({ provider: "anthropic", model: "claude-sonnet-4-5-20250929", title: "New conversation" });
    const second = await (await client.post("/api/advisor/conversations", { title: "Fridays", provider: "anthropic", model: "claude-opus-4-1-20250805" })).json();
    const list = await (await client.get("/api/advisor/conversations")).json();
    expect(list.conversations.map((c: { id: string }) => c.id)).toEqual([second.id, conversation.id]);
    expect(list.nextCursor).toBeNull();
    const renamed = await client.request(`/api/advisor/conversations/${conversation.id}`, { method: "PATCH", json: { title: "  March review " } });
    expect(await renamed.json()).toMatchObject({ title: "March review" });
    const other = await signUp(t, "other");
    for (const res of [
      await other.client.get(`/api/advisor/conversations/${conversation.id}`),
      await other.client.request(`/api/advisor/conversations/${conversation.id}`, { method: "PATCH", json: { title: "x" } }),
      await other.client.delete(`/api/advisor/conversations/${conversation.id}`),
      await ask(other.client, conversation.id, "hello"),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await client.delete(`/api/advisor/conversations/${conversation.id}`)).status).toBe(204);
    expect((await client.get(`/api/advisor/conversations/${conversation.id}`)).status).toBe(404);
    // Without any key, no conversation can start.
    const keyless = await signUp(t, "keyless");
    const refused = await keyless.client.post("/api/advisor/conversations", {});
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("PROVIDER_KEY_REQUIRED");
  });

  it("refuse bad bodies with 400 and a turn for a provider with no stored key with 409 PROVIDER_KEY_REQUIRED, before any stream", async () => {
    const { client, conversation } = await trader(t);
    for (const body of [{}, { clientMessageId: "nope", text: "x" }, { clientMessageId: crypto.randomUUID(), text: "" }, { clientMessageId: crypto.randomUUID(), text: "   " }, { clientMessageId: crypto.randomUUID(), text: "x".repeat(20_001) }]) {
      expect((await client.post(`/api/advisor/conversations/${conversation.id}/turns`, body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    await client.request(`/api/advisor/conversations/${conversation.id}`, { method: "PATCH", json: { provider: "gemini", model: "gemini-2.5-pro" } }).then(async (r) => {
      // The conversation may only switch to a provider the user has a key for.
      expect(r.status).toBe(409);
    });
    await client.delete("/api/advisor/provider-keys/openai");
    const res = await ask(client, conversation.id, "hello");
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("PROVIDER_KEY_REQUIRED");
    expect(await messages(client, conversation.id)).toEqual([]);
  });
});

describe("a turn", () => {
  it.each(["openai", "anthropic", "gemini", "openrouter"])("%s: streams start, deltas, usage and done, and stores the answer", async (provider) => {
    const { client, conversation } = await trader(t, provider);
    const before = stand.streams.length;
    const { events } = await turn(client, conversation.id, "How do I keep a trading journal?");
    expect(names(events)).toEqual(["start", "delta", "usage", "done"]);
    expect(textOf(events)).toBe("Here is my answer.");
    const start = events[0]!.data;
    expect(events.at(-1)!.data).toEqual({ messageId: start.messageId, finishReason: "stop" });
    const usage = events.find((e) => e.event === "usage")!.data;
    expect(usage).toEqual({ inputTokens: expect.any(Number), outputTokens: 20 });
    expect(stand.streams.length).toBe(before + 1);
    const stored = await messages(client, conversation.id);
    expect(stored).toEqual([
      expect.objectContaining({ role: "user", text: "How do I keep a trading journal?", status: "complete", toolCalls: [] }),
      expect.objectContaining({ id: start.messageId, role: "assistant", text: "Here is my answer.", status: "complete", usage }),
    ]);
    // The first message titles the conversation.
    expect((await (await client.get(`/api/advisor/conversations/${conversation.id}`)).json()).conversation.title).toBe("How do I keep a trading journal?");
  });

  it("reads the journal through a tool: the model gets the trader's real figures, the answer cites them", async () => {
    const { client, conversation } = await trader(t, "openai", { share: true });
    const account = await (await client.post("/api/accounts", { name: `A ${crypto.randomUUID()}`, currency: "USD", timezone: "Etc/UTC" })).json();
    for (const [side, price, at] of [["buy", "100", "2026-03-02T14:00:00Z"], ["sell", "112.5", "2026-03-02T15:00:00Z"]]) {
      expect((await client.post("/api/fills", { accountId: account.id, symbol: "AAPL", side, quantity: "10", price, fees: "1", executedAt: at })).status).toBe(201);
    }
    const before = stand.streams.length;
    const { events } = await turn(client, conversation.id, `How did I do in March? #tool:performance_summary:{"accountId":"${account.id}","from":"2026-03-01T00:00:00Z","to":"2026-04-01T00:00:00Z"}`);
    expect(names(events)).toEqual(["start", "tool_call", "tool_result", "delta", "usage", "done"]);
    expect(events[1]!.data).toMatchObject({ name: "performance_summary", arguments: { accountId: account.id } });
    expect(events[2]!.data).toMatchObject({ name: "performance_summary", ok: true, summary: expect.stringContaining("1 closed trade, net P&L 123.00") });
    // What went back to the model: the figures of the trader's own round trip (125 gross, 2 of fees).
    const second = stand.streams[before + 1]!;
    const toolMessage = (second.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "tool")!;
    expect(JSON.parse(toolMessage.content)).toMatchObject({ trades: 1, wins: 1, netPnl: "123.00", grossPnl: "125.00", fees: "2.00" });
    // The model was told today's date, the account's zone, and the rule about figures.
    const system = (second.body.messages as Array<{ role: string; content: string }>)[0]!;
    expect(system.content).toContain(`id ${account.id}): currency USD, time zone Etc/UTC`);
    expect(system.content).toContain("must come from a tool result");
    expect(textOf(events)).toContain('"netPnl":"123.00"');
    const [, answer] = await messages(client, conversation.id);
    expect(answer!.toolCalls).toEqual([{ id: "call_1", name: "performance_summary", arguments: expect.any(Object), summary: expect.stringContaining("net P&L 123.00") }]);
  });

  it("never hands the model a sum across currencies: with USD and EUR accounts the tool asks for a currency, and answers in one", async () => {
    const { client, conversation } = await trader(t, "openai", { share: true });
    for (const currency of ["USD", "EUR"]) {
      const account = await (await client.post("/api/accounts", { name: `${currency} ${crypto.randomUUID()}`, currency, timezone: "Etc/UTC" })).json();
      for (const [side, price, at] of [["buy", "100", "2026-03-02T14:00:00Z"], ["sell", currency === "USD" ? "112.5" : "90", "2026-03-02T15:00:00Z"]]) {
        expect((await client.post("/api/fills", { accountId: account.id, symbol: "ABC", side, quantity: "10", price, executedAt: at })).status).toBe(201);
      }
    }
    const before = stand.streams.length;
    const all = await turn(client, conversation.id, "How did I do overall? #tool:performance_summary:{}");
    expect(all.events[2]!.data).toMatchObject({ name: "performance_summary", ok: false, summary: expect.stringContaining("Your accounts are in EUR, USD") });
    const toModel = (stand.streams[before + 1]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "tool")!;
    expect(toModel.content).toContain("Choose an account (accountId) or a currency (currency=EUR)");
    expect((stand.streams[before + 1]!.body.messages as Array<{ role: string; content: string }>)[0]!.content).toContain("Amounts in different currencies are never added up");

    const euros = await turn(client, conversation.id, 'And in euros? #tool:performance_summary:{"currency":"eur"}');
    expect(euros.events[2]!.data).toMatchObject({ name: "performance_summary", ok: true, summary: expect.stringContaining("1 closed trade, net P&L -100.00 EUR") });
    const figures = (stand.streams.at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "tool").at(-1)!;
    expect(JSON.parse(figures.content)).toMatchObject({ currency: "EUR", trades: 1, netPnl: "-100.00" });
  });

  it("the statistics and trade tools carry R when trades have a planned risk", async () => {
    const { client, conversation } = await trader(t, "openai", { share: true });
    const account = await (await client.post("/api/accounts", { name: `R ${crypto.randomUUID()}`, currency: "USD", timezone: "Etc/UTC" })).json();
    for (const [side, price, at] of [["buy", "50", "2026-03-02T14:00:00Z"], ["sell", "53", "2026-03-02T15:00:00Z"]]) {
      expect((await client.post("/api/fills", { accountId: account.id, symbol: "RRR", side, quantity: "100", price, executedAt: at })).status).toBe(201);
    }
    const [trade] = (await (await client.get(`/api/trades?accountId=${account.id}`)).json()).trades;
    expect((await client.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { stopPrice: "48", targetPrice: "56" } })).status).toBe(200);
    const toolResult = () => JSON.parse((stand.streams.at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "tool").at(-1)!.content);
    await turn(client, conversation.id, `How did it go in R? #tool:performance_summary:{"accountId":"${account.id}"}`);
    expect(toolResult().r).toMatchObject({ trades: 1, withRisk: 1, total: "1.50", expectancy: "1.50" });
    await turn(client, conversation.id, `And the trade? #tool:get_trade:{"tradeId":"${trade.id}"}`);
    expect(toolResult()).toMatchObject({ oneR: "200.00", rMultiple: "1.50", stopPrice: "48.00", targetPrice: "56.00", plannedRR: "3.00" });
    expect(toolResult().excursions).toBeUndefined();
    // With bars uploaded over its life, the trade tools carry its excursions too.
    const candles = new FormData();
    candles.set("file", new Blob([["time,open,high,low,close", "2026-03-02T14:30:00Z,50,55,47,54"].join("\n")]), "rrr.csv");
    candles.set("symbol", "RRR");
    candles.set("resolution", "1m");
    expect((await client.request("/api/bars/upload", { method: "POST", body: candles })).status).toBe(201);
    await turn(client, conversation.id, `And now? #tool:get_trade:{"tradeId":"${trade.id}"}`);
    expect(toolResult().excursions).toEqual({ mae: "-300.00", mfe: "500.00", maeR: "-1.50", mfeR: "2.50", bestExitPnl: "500.00", efficiency: "0.6000" });
    await turn(client, conversation.id, `By symbol? #tool:breakdown:{"accountId":"${account.id}","by":"symbol"}`);
    expect(toolResult().groups).toEqual([expect.objectContaining({ key: "RRR", rTotal: "1.50", withRisk: 1 })]);
  });

  it("the option strategies tool: a condor as one strategy with its legs' trade ids; the summary counted per strategy", async () => {
    const { client, conversation } = await trader(t, "openai", { share: true });
    const account = await (await client.post("/api/accounts", { name: `Condors ${crypto.randomUUID()}`, currency: "USD", timezone: "America/New_York" })).json();
    const legs = [["SPY   270115P00440000", "buy", "0.50"], ["SPY   270115P00445000", "sell", "1.50"], ["SPY   270115C00455000", "sell", "1.40"], ["SPY   270115C00460000", "buy", "0.40"]] as const;
    for (const [i, [symbol, side, price]] of legs.entries())
      expect((await client.post("/api/fills", { accountId: account.id, symbol, side, quantity: "1", price, fees: "0", executedAt: `2026-03-02T10:00:0${i}-05:00` })).status).toBe(201);
    const toolResult = () => JSON.parse((stand.streams.at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "tool").at(-1)!.content);
    const { events } = await turn(client, conversation.id, `How are my condors? #tool:option_strategies:{"accountId":"${account.id}","kind":"iron_condor"}`);
    expect(events[2]!.data).toMatchObject({ name: "option_strategies", ok: true, summary: "Read 1 option strategy" });
    const [condor] = toolResult().strategies;
    expect(condor).toMatchObject({ underlying: "SPY", kind: "iron_condor", credit: true, premium: "200.00", maxProfit: "200.00", maxLoss: "300.00" });
    const tradeIds = (await (await client.get(`/api/trades?accountId=${account.id}`)).json()).trades.map((x: { id: string }) => x.id).sort();
    expect(condor.legs.map((l: { tradeId: string }) => l.tradeId).sort()).toEqual(tradeIds);
    await turn(client, conversation.id, `Per strategy? #tool:performance_summary:{"accountId":"${account.id}","countBy":"strategy"}`);
    expect(toolResult()).toMatchObject({ countBy: "strategy", trades: 0 });
  });

  it("the discipline tools: behaviour findings cite their trades by id; compliance names the rules broken; the playbook report", async () => {
    const { client, conversation } = await trader(t, "openai", { share: true });
    const account = await (await client.post("/api/accounts", { name: `Tilt ${crypto.randomUUID()}`, currency: "USD", timezone: "America/New_York" })).json();
    const fill = async (symbol: string, side: string, quantity: string, price: string, at: string) =>
      expect((await client.post("/api/fills", { accountId: account.id, symbol, side, quantity, price, executedAt: at })).status).toBe(201);
    // A loss closed 10:00, then a larger trade 10 minutes later: a revenge trade.
    await fill("AAA", "buy", "10", "50", "2026-03-02T09:40:00-05:00");
    await fill("AAA", "sell", "10", "49", "2026-03-02T10:00:00-05:00");
    await fill("BBB", "buy", "30", "50", "2026-03-02T10:10:00-05:00");
    await fill("BBB", "sell", "30", "48", "2026-03-02T10:20:00-05:00");
    const revenge = (await (await client.get(`/api/trades?accountId=${account.id}&symbol=BBB`)).json()).trades[0].id;
    expect((await client.post("/api/rules", { accountId: account.id, rule: { type: "cooldown_after_loss", minutes: 15 } })).status).toBe(201);
    const toolResult = () => JSON.parse((stand.streams.at(-1)!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "tool").at(-1)!.content);

    const { events } = await turn(client, conversation.id, `What am I doing wrong? #tool:behaviour_findings:{"accountId":"${account.id}"}`);
    expect(events[2]!.data).toMatchObject({ name: "behaviour_findings", ok: true, summary: "Checked 4 behaviour patterns: revenge trades, size up after a loss" });
    const revengeFinding = toolResult().findings.find((f: { kind: string }) => f.kind === "revenge");
    expect(revengeFinding).toMatchObject({ found: true, count: 1, netPnl: "-60.00", trades: [{ id: revenge, symbol: "BBB" }] });

    await turn(client, conversation.id, `Did I keep my rules? #tool:rules_compliance:{"accountId":"${account.id}"}`);
    expect(toolResult()).toMatchObject({
      rules: [{ label: "Wait 15 minutes after a losing trade", brokenTrades: 1, brokenDays: 1, brokenNetPnl: "-60.00" }],
      trades: { compliant: { trades: 1, netPnl: "-10.00" }, broken: { trades: 1, netPnl: "-60.00" } },
      brokenDays: [{ day: "2026-03-02" }],
    });
    expect((await client.request(`/api/trades/${revenge}`, { method: "PATCH", json: { tags: ["tilt"] } })).status).toBe(200);
    expect((await client.request("/api/tags/kind", { method: "PUT", json: { tag: "tilt", kind: "mistake" } })).status).toBe(200);
    await turn(client, conversation.id, `What do my mistakes cost? #tool:tag_costs:{"accountId":"${account.id}","kind":"mistake"}`);
    expect(toolResult().tags).toEqual([{ tag: "tilt", kind: "mistake", trades: 1, wins: 0, netPnl: "-60.00", winRate: "0.0000", expectancy: "-60.00" }]);
    expect((await client.request(`/api/days/${account.id}/2026-03-02`, { method: "PUT", json: { plan: "One trade, then walk away.", mood: 2 } })).status).toBe(200);
    const days = await turn(client, conversation.id, `Draft my recap #tool:daily_journal:{"accountId":"${account.id}","from":"2026-03-02","to":"2026-03-08"}`);
    expect(days.events[2]!.data).toMatchObject({ name: "daily_journal", ok: true, summary: "Read 1 daily journal entry from 2026-03-02 to 2026-03-08" });
    expect(toolResult().days).toEqual([{ accountId: account.id, day: "2026-03-02", plan: "One trade, then walk away.", review: null, mood: 2, tags: [] }]);
    await turn(client, conversation.id, `And my playbooks? #tool:playbook_report:{"accountId":"${account.id}"}`);
    expect(toolResult()).toMatchObject({ playbooks: [], none: { trades: 2, netPnl: "-70.00" } });
    // A prop firm's rules over the same trades (docs/prop-firms.md): 10 and 30 shares are past its 5 contracts.
    const replay = await turn(client, conversation.id, `Would I pass Topstep? #tool:prop_replay:{"accountId":"${account.id}","preset":"topstep-combine-50k","from":"2026-03-01","to":"2026-03-06"}`);
    expect(replay.events[2]!.data).toMatchObject({ name: "prop_replay", ok: true, summary: "Replayed 1 trading day under Topstep Trading Combine 50K: breached (max_contracts) on 2026-03-02" });
    expect(toolResult()).toMatchObject({ passedOn: null, breachedOn: "2026-03-02", status: { state: "breached", balance: "49930.00", floor: "48000.00" }, days: [{ day: "2026-03-02", pnl: "-70.00" }] });
    // What-if and Monte Carlo (docs/simulations.md): without the revenge trade; and too few trades with a 1R to simulate.
    const what = await turn(client, conversation.id, `Without revenge? #tool:what_if:{"accountId":"${account.id}","exclude":"revenge"}`);
    expect(what.events[2]!.data).toMatchObject({ name: "what_if", ok: true, summary: "What-if without revenge: -70.00 became -10.00 (1 trade removed, 0 changed)" });
    expect(toolResult()).toMatchObject({ removed: 1, whatIf: { trades: 1, netPnl: "-10.00" }, trades: [{ id: revenge, removedFor: ["revenge"] }] });
    expect((await client.request(`/api/accounts/${account.id}`, { method: "PATCH", json: { defaultRisk: "20" } })).status).toBe(200);
    const few = await turn(client, conversation.id, `Simulate #tool:monte_carlo:{"accountId":"${account.id}","trades":100,"riskPerTrade":"50","startingBalance":"5000"}`);
    expect(few.events[2]!.data).toMatchObject({ name: "monte_carlo", ok: false });
    for (let i = 0; i < 20; i++) {
      const at = (m: number) => `2026-03-${String(3 + (i % 5)).padStart(2, "0")}T${String(10 + Math.floor(i / 5)).padStart(2, "0")}:${String(m).padStart(2, "0")}:00-05:00`;
      await fill("CCC", "buy", "10", "50", at(0));
      await fill("CCC", "sell", "10", i % 3 ? "52" : "49", at(30));
    }
    const sim = await turn(client, conversation.id, `Simulate #tool:monte_carlo:{"accountId":"${account.id}","trades":100,"riskPerTrade":"50","startingBalance":"5000","seed":5}`);
    expect(sim.events[2]!.data).toMatchObject({ name: "monte_carlo", ok: true, summary: expect.stringMatching(/^Simulated 20,?000 paths of 100 trades from 22 trades with a 1R \(seed 5\): median final \d+\.\d\d, ruin \d+\.\d\d%$/) });
    expect(toolResult()).toMatchObject({ sampled: 22, seed: 5, paths: 20000, trades: 100 });
    expect(toolResult().fan).toBeUndefined();
  });

  it("without data sharing, sends no tools and no journal, and tells the model why", async () => {
    const { client, conversation } = await trader(t, "anthropic");
    const before = stand.streams.length;
    await turn(client, conversation.id, "What is my win rate?");
    const request = stand.streams[before]!.body;
    expect(request.tools).toBeUndefined();
    expect(JSON.stringify(request.system)).toContain("has not allowed their journal data to be sent");
  });

  it("the same clientMessageId replays the stored answer: no second provider call, the same events", async () => {
    const { client, conversation } = await trader(t);
    const id = crypto.randomUUID();
    const first = await turn(client, conversation.id, "Explain expectancy.", id);
    const calls = stand.streams.length;
    const again = await turn(client, conversation.id, "Explain expectancy.", id);
    expect(stand.streams.length).toBe(calls);
    expect(textOf(again.events)).toBe(textOf(first.events));
    expect(again.events.at(-1)).toEqual(first.events.at(-1));
    expect(await messages(client, conversation.id)).toHaveLength(2);
  });

  it("one turn per conversation at a time: a second one is 409 TURN_IN_PROGRESS, another conversation is not blocked", async () => {
    const { client, conversation } = await trader(t);
    const slow = ask(client, conversation.id, "Tell me slowly #slow:150");
    await new Promise((r) => setTimeout(r, 100));
    const blocked = await ask(client, conversation.id, "And now?");
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).error.code).toBe("TURN_IN_PROGRESS");
    const other = await (await client.post("/api/advisor/conversations", {})).json();
    expect((await ask(client, other.id, "Elsewhere")).status).toBe(200);
    expect(parseSse(await (await slow).text()).events.at(-1)!.event).toBe("done");
    // Free again afterwards.
    expect((await ask(client, conversation.id, "Now?")).status).toBe(200);
  });

  it("a client that goes away stops the provider call; the partial answer is kept as incomplete", async () => {
    const { client, conversation } = await trader(t);
    const aborted = stand.aborted();
    const res = await ask(client, conversation.id, "Write a lot #slow:100 #chunks:40");
    await readUntil(res, (text) => (text.match(/event: delta/g) ?? []).length >= 3);
    await t.settled();
    await expect.poll(() => stand.aborted(), { timeout: 5000 }).toBeGreaterThan(aborted);
    const [, answer] = await messages(client, conversation.id);
    expect(answer).toMatchObject({ status: "incomplete" });
    expect(String(answer!.text)).toMatch(/^(word ){3,39}$/);
    // The conversation is free for the next turn.
    expect((await ask(client, conversation.id, "Still there?")).status).toBe(200);
  });

  it("over a real socket (the Node entrypoint), a client that goes away stops the provider call; the answer is kept incomplete and the conversation freed", async () => {
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...stand.env, DATABASE_URL: url() });
    try {
      const { client, conversation } = await trader(t);
      const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const aborted = stand.aborted();
      const res = await fetch(`${server.url}/api/advisor/conversations/${conversation.id}/turns`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({ clientMessageId: crypto.randomUUID(), text: "Write slowly #slow:100 #chunks:100" }),
      });
      expect(res.status).toBe(200);
      await readUntil(res, (text) => (text.match(/event: delta/g) ?? []).length >= 2);
      await expect.poll(() => stand.aborted(), { timeout: 5000 }).toBeGreaterThan(aborted);
      // The answer is stored "incomplete" with no text when the turn begins: wait for the turn's own end, its text.
      await expect.poll(async () => String((await messages(client, conversation.id))[1]?.text ?? ""), { timeout: 5000 }).toMatch(/^(word ){2,99}$/);
      expect((await messages(client, conversation.id))[1]?.status).toBe("incomplete");
      await expect.poll(async () => (await ask(client, conversation.id, "Still there? #chunks:1")).status, { timeout: 5000 }).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("a turn that runs longer than its claim's lease renews it: the conversation stays its own until the end, then is free", async () => {
    const { client, conversation } = await trader(t);
    const claim = async () => {
      const [row] = rowsOf<{ ms: number | null }>(
        await t.deps.db.execute(sql`select (extract(epoch from turn_until - now()) * 1000)::int as ms from advisor_conversations where id = ${conversation.id}`),
      );
      return row!.ms;
    };
    const res = await ask(client, conversation.id, "Take your time #slow:100 #chunks:25");
    const reader = res.body!.getReader();
    // Past two leases (ADVISOR_CLAIM_LEASE_MS is 1000 here) into a 2.5 s answer.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await ask(client, conversation.id, "Meanwhile?")).status).toBe(409);
    const left = await claim();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(1000);
    let text = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    expect(parseSse(text).events.at(-1)!.event).toBe("done");
    await t.settled();
    expect(await claim()).toBeNull();
    expect((await ask(client, conversation.id, "Now?")).status).toBe(200);
  });

  it("a client that never reads the stream does not hold the turn up: the answer is stored whole and the conversation freed", async () => {
    const { client, conversation } = await trader(t);
    const unread = await ask(client, conversation.id, "Write a lot #chunks:400");
    expect(unread.status).toBe(200);
    // Proxies (the web container's nginx) must pass events through as they come.
    expect(unread.headers.get("Cache-Control")).toBe("no-cache, no-transform");
    expect(unread.headers.get("X-Accel-Buffering")).toBe("no");
    await t.settled();
    const [, answer] = await messages(client, conversation.id);
    expect(answer).toMatchObject({ status: "complete", text: "word ".repeat(400) });
    expect((await ask(client, conversation.id, "Next")).status).toBe(200);
    // Read late, the stream still holds every event in order.
    const { events } = parseSse(await unread.text());
    expect(names(events)).toEqual(["start", "delta", "usage", "done"]);
    expect(textOf(events)).toBe("word ".repeat(400));
  });

  it("a turn that outlives its budget ends with TURN_TIMEOUT and keeps what was written; keepalives flow meanwhile", async () => {
    const { client, conversation } = await trader(t);
    const started = Date.now();
    const { events, comments } = await turn(client, conversation.id, "Think hard #hang-after:2");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(comments).toBeGreaterThan(5);
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "TURN_TIMEOUT" } });
    expect(textOf(events)).toBe("Here is my ");
    const [, answer] = await messages(client, conversation.id);
    expect(answer).toMatchObject({ status: "incomplete", text: "Here is my " });
  });

  it.each([
    ["#status:500", "PROVIDER_UNAVAILABLE"],
    ["#status:429", "PROVIDER_RATE_LIMITED"],
    ["#status:400", "CONTEXT_TOO_LONG"],
  ])("a provider answering %s ends the stream with %s and the message failed", async (directive, code) => {
    const { client, conversation } = await trader(t);
    const { events } = await turn(client, conversation.id, `Hi ${directive}`);
    expect(names(events)).toEqual(["start", "usage", "error"]);
    expect(events.at(-1)!.data).toMatchObject({ code, message: expect.any(String) });
    const [, answer] = await messages(client, conversation.id);
    expect(answer).toMatchObject({ status: "failed", text: "" });
  });

  it("a key the provider now refuses: PROVIDER_KEY_INVALID, and the key is marked unverified; a malformed chunk is skipped", async () => {
    const { client, conversation } = await trader(t, "openai", { key: apiKey("flaky") });
    await t.deps.db.execute(sql`update stored_keys set verified = true`);
    // The stand-in refuses keys containing invalid401 on model calls: store one directly (probes would refuse it).
    const other = await trader(t, "openai");
    const bad = apiKey("invalid401");
    const { additionalData, keyRing, seal } = await import("../../lib/crypto/envelope.ts");
    await t.deps.db.execute(sql`update stored_keys set ciphertext = ${await seal(await keyRing(t.config), bad, additionalData(other.userId, "openai"))}
      where user_id = ${other.userId} and provider = 'openai'`);
    const refused = await turn(other.client, other.conversation.id, "Hi");
    expect(refused.events.at(-1)!.data).toMatchObject({ code: "PROVIDER_KEY_INVALID" });
    const [key] = (await (await other.client.get("/api/advisor/provider-keys")).json()).keys;
    expect(key.verified).toBe(false);

    const { events } = await turn(client, conversation.id, "Hi #malformed");
    expect(events.at(-1)).toMatchObject({ event: "done" });
    expect(textOf(events)).toBe("Here is my answer.");
  });

  it("allows 30 turns a minute per user, then 429", async () => {
    // The minute is a fixed window aligned to the clock: a burst across its edge is counted again, so it is
    // run once more, by a new trader, when it straddled one.
    const status = await inOneWindow(60, async () => {
      const { client, conversation } = await trader(t);
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push((await ask(client, conversation.id, `n${i}`)).text());
      await Promise.all(answers);
      return (await ask(client, conversation.id, "one more")).status;
    });
    expect(status).toBe(429);
  });

  it("no key and no journal text reach a log line", async () => {
    const key = apiKey("secretive");
    const { client, conversation } = await trader(t, "openai", { share: true, key });
    const account = await (await client.post("/api/accounts", { name: `A ${crypto.randomUUID()}`, currency: "USD" })).json();
    await client.post("/api/fills", { accountId: account.id, symbol: "TSLA", side: "buy", quantity: "1", price: "200", executedAt: "2026-03-02T14:00:00Z" });
    const [trade] = (await (await client.get(`/api/trades?accountId=${account.id}`)).json()).trades;
    await client.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { notes: "PRIVATE-NOTE-7731 revenge trade" } });
    await turn(client, conversation.id, `Look at it #tool:get_trade:{"tradeId":"${trade.id}"}`);
    await turn(client, conversation.id, "Break #status:500");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain(key.slice(3, -4));
      expect(line).not.toContain("PRIVATE-NOTE-7731");
    }
  });
});

describe("a long conversation", () => {
  it("is summarised once it nears the model's context window: one extra call, then the summary in place of the older messages", async () => {
    const small = await testApp(url(), { ...stand.env, MODEL_PRICES: JSON.stringify({ [`openai:${EXPECTED_DEFAULTS.openai}`]: { input: "1.25", output: "10", contextTokens: 2000 } }) }, { peer: "per-request" });
    const key = apiKey();
    const { client, conversation } = await trader(small, "openai", { key });
    expect(conversation.model).toBe(EXPECTED_DEFAULTS.openai);
    const long = (n: number) => `Question ${n}: ${"about my trading ".repeat(120)}`; // ~2,000 characters, ~500 tokens
    const mine = () => stand.streams.filter((r) => r.key === key);
    for (let n = 1; n <= 3; n++) await turn(client, conversation.id, long(n));
    expect(mine()).toHaveLength(3); // under 60% of 2,000 tokens, or too few messages: no summary yet
    const before = mine().length;
    const { events } = await turn(client, conversation.id, long(4));
    const [summaryCall, answerCall] = mine().slice(before).map((r) => JSON.stringify(r.body));
    expect(mine()).toHaveLength(before + 2);
    expect(summaryCall).toContain("Summarise this conversation");
    expect(summaryCall).toContain("Question 1:");
    expect(answerCall).toContain("Summary of the earlier part of this conversation:");
    expect(answerCall).not.toContain("Question 1:"); // summarised away
    for (const kept of ["Question 2:", "Question 3:", "Question 4:"]) expect(answerCall).toContain(kept);
    expect(names(events)).toEqual(["start", "delta", "usage", "done"]);
    // The turn's usage counts both calls.
    const usage = events.find((e) => e.event === "usage")!.data as { inputTokens: number };
    expect(usage.inputTokens).toBeGreaterThan(Math.floor(answerCall!.length / 4));
    const [row] = rowsOf<{ summary: string | null }>(await t.deps.db.execute(sql`select summary from advisor_conversations where id = ${conversation.id}`));
    expect(row!.summary).toBe("Here is my answer.");
    // Every message is still there for the trader to read.
    expect(await messages(client, conversation.id)).toHaveLength(8);
  });
});

describe("metering (billing on)", () => {
  async function funded(credits: number, provider = "openai") {
    const who = await trader(metered, provider);
    await metered.deps.db.execute(sql`select wallet_apply(${who.userId}::uuid, 'admin_grant', ${credits}::bigint, 0, null, 'test', null)`);
    return who;
  }

  it("charges ceil(raw cost x markup x 100) credits from the reported usage, and releases the rest of the hold", async () => {
    const { client, userId, conversation } = await funded(5000);
    const { events } = await turn(client, conversation.id, "Hello");
    const start = events[0]!.data as { reservedCredits: number };
    expect(start.reservedCredits).toBeGreaterThan(0);
    const usage = events.find((e) => e.event === "usage")!.data as { inputTokens: number; outputTokens: number; credits: number };
    const price = priceOf({}, "openai", conversation.model)!;
    expect(usage.credits).toBe(creditsFor(price, usage.inputTokens, usage.outputTokens, "1.2"));
    expect(await getWallet(metered.deps, userId)).toEqual({ balance: 5000 - usage.credits, reserved: 0, available: 5000 - usage.credits });
  });

  it("refuses a turn before any stream with 402 INSUFFICIENT_CREDITS, and an unpriced model with 409 MODEL_NOT_PRICED", async () => {
    const broke = await funded(0);
    const res = await ask(broke.client, broke.conversation.id, "Hello");
    expect(res.status).toBe(402);
    expect((await res.json()).error.code).toBe("INSUFFICIENT_CREDITS");
    const rich = await funded(100);
    await rich.client.request(`/api/advisor/conversations/${rich.conversation.id}`, { method: "PATCH", json: { model: "text-embedding-3-small" } });
    const unpriced = await ask(rich.client, rich.conversation.id, "Hello");
    expect(unpriced.status).toBe(409);
    expect((await unpriced.json()).error.code).toBe("MODEL_NOT_PRICED");
    expect(await getWallet(metered.deps, rich.userId)).toMatchObject({ balance: 100, reserved: 0 });
  });

  it("stops generating when the running cost reaches the hold, charging no more than it", async () => {
    const { client, userId, conversation } = await funded(1);
    const { events } = await turn(client, conversation.id, "Write an essay #chunks:400");
    expect(events[0]!.data).toMatchObject({ reservedCredits: 1 });
    expect(events.at(-1)).toMatchObject({ event: "done", data: { finishReason: "credit_limit" } });
    expect(textOf(events).length).toBeLessThan(400 * 5);
    expect(await getWallet(metered.deps, userId)).toEqual({ balance: 0, reserved: 0, available: 0 });
  });

  // The provider failing mid-answer, per provider wire format: every hold ends (nothing stays reserved),
  // the charge is what the usage event says (a provider that never answered costs nothing), the answer is
  // stored with what arrived, and the stream ends with an event that says so.
  it.each([
    { fault: "#reset-after:3", status: "incomplete", last: "error", charged: true },
    { fault: "#reset", status: "failed", last: "error", charged: false },
    { fault: "#garbage", status: "failed", last: "error", charged: false },
    { fault: "#hang-after:2", status: "incomplete", last: "error", charged: true },
  ])("a provider that fails with $fault: hold ended, charged only for what arrived, the answer $status", async ({ fault, status, last, charged }) => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) {
      const { client, userId, conversation } = await funded(5000, provider);
      const { events } = await turn(client, conversation.id, `Write ${fault} #chunks:6 #slow:30`);
      expect(events.at(-1)?.event, `${provider}: ${JSON.stringify(events.at(-1))}`).toBe(last);
      const usage = events.find((e) => e.event === "usage")!.data as { credits: number };
      expect(usage.credits > 0, `${provider}: ${JSON.stringify(events.filter((e) => e.event !== "delta"))}`).toBe(charged);
      expect(await getWallet(metered.deps, userId), provider).toEqual({ balance: 5000 - usage.credits, reserved: 0, available: 5000 - usage.credits });
      const [, answer] = await messages(client, conversation.id);
      expect(answer, provider).toMatchObject({ status, text: charged ? expect.stringMatching(/^(word )+$/) : "" });
    }
  }, 30_000);

  it("a disconnect charges only what was used; 50 concurrent turns on a small wallet never take it below zero", async () => {
    const { client, userId, conversation } = await funded(1000);
    const res = await ask(client, conversation.id, "Write a lot #slow:50 #chunks:60");
    await readUntil(res, (text) => (text.match(/event: delta/g) ?? []).length >= 2);
    await metered.settled();
    await expect.poll(async () => (await getWallet(metered.deps, userId)).reserved, { timeout: 5000 }).toBe(0);
    const [, answer] = await messages(client, conversation.id);
    const charged = (answer!.usage as { credits: number }).credits;
    expect(charged).toBeGreaterThan(0);
    expect((await getWallet(metered.deps, userId)).balance).toBe(1000 - charged);

    const small = await funded(30);
    const conversations = await Promise.all(Array.from({ length: 50 }, async () => (await (await small.client.post("/api/advisor/conversations", {})).json()).id as string));
    const results = await Promise.all(conversations.map((id) => ask(small.client, id, "Hi").then(async (r) => ({ status: r.status, body: await r.text() }))));
    const statuses = new Set(results.map((r) => r.status));
    expect([...statuses].every((s) => s === 200 || s === 402 || s === 429)).toBe(true);
    expect(results.some((r) => r.status === 402)).toBe(true);
    const wallet = await getWallet(metered.deps, small.userId);
    expect(wallet.balance).toBeGreaterThanOrEqual(0);
    expect(wallet.reserved).toBe(0);
    const [sums] = rowsOf<{ spent: string }>(await metered.deps.db.execute(sql`select coalesce(-sum(amount), 0)::text as spent from wallet_movements where user_id = ${small.userId} and kind = 'charge'`));
    expect(30 - Number(sums!.spent)).toBe(wallet.balance);
  });

  it("a process killed (kill -9) mid-turn: the hold comes back through the expiry job, the answer stays incomplete, the conversation frees itself", async () => {
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    const server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...stand.env, ...billingEnv(payments), DATABASE_URL: url() });
    try {
      const { client, userId, conversation } = await funded(500);
      const res = await fetch(`${server.url}/api/advisor/conversations/${conversation.id}/turns`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
        body: JSON.stringify({ clientMessageId: crypto.randomUUID(), text: "Write slowly #slow:200 #chunks:100" }),
      });
      expect(res.status).toBe(200);
      await readUntil(res, (text) => text.includes("event: delta"));
      server.child.kill("SIGKILL");
      await new Promise((resolve) => server.child.once("exit", resolve));

      const held = await getWallet(metered.deps, userId);
      expect(held.reserved).toBeGreaterThan(0);
      expect(held.balance).toBe(500);
      const later = { ...metered.deps, now: () => new Date(Date.now() + metered.config.RESERVATION_TTL_MS + 1000) };
      expect(await releaseExpiredHolds(later)).toBeGreaterThanOrEqual(1);
      expect(await getWallet(metered.deps, userId)).toEqual({ balance: 500, reserved: 0, available: 500 });
      const [, answer] = await messages(client, conversation.id);
      expect(answer).toMatchObject({ role: "assistant", status: "incomplete" });
      // The dead process's claim on the conversation lapses with its lease (ADVISOR_CLAIM_LEASE_MS, a minute),
      // not after its turn budget.
      const [claim] = rowsOf<{ until: string }>(await metered.deps.db.execute(sql`select turn_until::text as until from advisor_conversations where id = ${conversation.id}`));
      expect(Date.parse(claim!.until) - Date.now()).toBeLessThanOrEqual(60_000);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
