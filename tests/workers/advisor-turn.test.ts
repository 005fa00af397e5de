import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import advisorWorker from "../../functions/workers/advisor.ts";
import { parseSse } from "../support/sse.ts";
import { apiRequest as request, call, registered } from "./http.ts";

// A turn inside workerd through the advisor Worker's own entry as deployed: the model call over its service
// binding to the Anthropic model Worker (the AI SDK there, built by the global setup), the tool called back
// over RPC, against the model provider's stand-in; the answer streamed as server-sent events and stored after
// the response has gone (the Worker's waitUntil).

describe("an advisor turn in workerd", () => {
  it("streams a grounded answer from the advisor Worker and stores it", async () => {
    const cookie = await registered("turn");
    expect((await call("/api/advisor/provider-keys/anthropic", { method: "PUT", cookie, json: { apiKey: `sk-ant-good-${crypto.randomUUID()}` } })).status).toBe(200);
    expect((await call("/api/advisor/settings", { method: "PUT", cookie, json: { shareJournal: true } })).status).toBe(200);
    const account = (await (await call("/api/accounts", { method: "POST", cookie, json: { name: "Main", currency: "USD", startingBalance: "1000", timezone: "America/New_York" } })).json()) as { id: string };
    for (const [side, price, at] of [["buy", "10", "2024-03-01T15:00:00Z"], ["sell", "12", "2024-03-01T16:00:00Z"]]) {
      const fill = await call("/api/fills", { method: "POST", cookie, json: { accountId: account.id, symbol: "MSFT", side, quantity: "100", price, executedAt: at } });
      expect(fill.status, await fill.clone().text()).toBe(201);
    }
    const conversation = (await (await call("/api/advisor/conversations", { method: "POST", cookie, json: {} })).json()) as { id: string; provider: string };
    expect(conversation.provider).toBe("anthropic");

    const ctx = createExecutionContext();
    const res = await advisorWorker.fetch(
      request(`/api/advisor/conversations/${conversation.id}/turns`, {
        method: "POST",
        cookie,
        json: { clientMessageId: crypto.randomUUID(), text: 'How did MSFT go? #tool:performance_summary:{"from":"2024-01-01T00:00:00Z"}' },
      }),
      { ...env },
      ctx,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    const { events } = parseSse(await res.text());
    await waitOnExecutionContext(ctx);
    expect(events.map((e) => e.event)).toEqual(["start", "tool_call", "tool_result", "delta", "delta", "usage", "done"]);
    expect(events[2]!.data).toMatchObject({ name: "performance_summary", ok: true, summary: expect.stringContaining("1 closed trade, net P&L 200") });
    const answer = events.filter((e) => e.event === "delta").map((e) => e.data.text).join("");
    expect(answer).toContain('"netPnl":"200');

    const stored = (await (await call(`/api/advisor/conversations/${conversation.id}`, { cookie })).json()) as { messages: Array<{ role: string; status: string; text: string; toolCalls: unknown[] }> };
    expect(stored.messages.map((m) => [m.role, m.status])).toEqual([["user", "complete"], ["assistant", "complete"]]);
    expect(stored.messages[1]!.text).toBe(answer);
    expect(stored.messages[1]!.toolCalls).toHaveLength(1);
  });

  it("a client that goes away mid-answer cancels the model Worker's stream; the partial answer is stored as incomplete", async () => {
    const cookie = await registered("gone");
    expect((await call("/api/advisor/provider-keys/anthropic", { method: "PUT", cookie, json: { apiKey: `sk-ant-good-${crypto.randomUUID()}` } })).status).toBe(200);
    const conversation = (await (await call("/api/advisor/conversations", { method: "POST", cookie, json: {} })).json()) as { id: string };
    const ctx = createExecutionContext();
    const res = await advisorWorker.fetch(
      request(`/api/advisor/conversations/${conversation.id}/turns`, { method: "POST", cookie, json: { clientMessageId: crypto.randomUUID(), text: "Slowly #slow:300 #chunks:20" } }),
      { ...env },
      ctx,
    );
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("event: delta")) text += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    await waitOnExecutionContext(ctx);
    const stored = (await (await call(`/api/advisor/conversations/${conversation.id}`, { cookie })).json()) as { messages: Array<{ role: string; status: string; text: string }> };
    expect(stored.messages[1]).toMatchObject({ role: "assistant", status: "incomplete" });
    expect(stored.messages[1]!.text.length).toBeGreaterThan(0);
    expect(stored.messages[1]!.text.length).toBeLessThan(20 * 5);
  });
});
