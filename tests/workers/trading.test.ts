import { describe, expect, it } from "vitest";
import { call } from "./http.ts";

// Accounts, fills, trades, the ledger and stats inside workerd: the SQL functions run over the
// serverless driver's HTTP transport, one statement each.

describe("trading routes in workerd", () => {
  it("account -> deposit -> round trip -> trade, ledger and stats", async () => {
    const reg = await call("/api/auth/register", { method: "POST", json: { email: `t-${crypto.randomUUID()}@example.com`, password: "workers password" } });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;

    const acct = await call("/api/accounts", { method: "POST", cookie, json: { name: "Edge", currency: "usd", startingBalance: "1000", timezone: "Asia/Tokyo" } });
    expect(acct.status).toBe(201);
    const { id: accountId } = await acct.json<{ id: string }>();

    expect((await call(`/api/ledger/${accountId}/entries`, { method: "POST", cookie, json: { type: "deposit", amount: "500" } })).status).toBe(201);
    for (const [side, price, executedAt] of [
      ["buy", "100", "2026-06-10T01:00:00Z"],
      ["sell", "110.5", "2026-06-10T15:30:00Z"],
    ]) {
      const res = await call("/api/fills", { method: "POST", cookie, json: { accountId, symbol: "7203", side, quantity: "10", price, fees: "1", executedAt } });
      expect(res.status).toBe(201);
    }
    const trades = await (await call(`/api/trades?accountId=${accountId}`, { cookie })).json<{ trades: Array<Record<string, unknown>> }>();
    expect(trades.trades).toHaveLength(1);
    expect(trades.trades[0]).toMatchObject({ status: "closed", grossPnl: "105.00", netPnl: "103.00" });

    const ledger = await (await call(`/api/ledger/${accountId}?pageSize=2`, { cookie })).json<{ entries: unknown[]; hasMore: boolean; runningBalanceAtFirstRow: string }>();
    expect(ledger.runningBalanceAtFirstRow).toBe("1603.00");
    expect(ledger.hasMore).toBe(true);

    const calendar = await (await call(`/api/stats/calendar?accountId=${accountId}`, { cookie })).json();
    // Realised P&L and fees count on the day they happen (Tokyo): the entry's fee on the 10th, the exit on the 11th.
    expect(calendar).toEqual({
      currency: "USD",
      days: [
        { date: "2026-06-10", netPnl: "-1.00", trades: 0, rTotal: null, withRisk: 0 },
        { date: "2026-06-11", netPnl: "104.00", trades: 1, rTotal: null, withRisk: 0 },
      ],
    });
  });
});
