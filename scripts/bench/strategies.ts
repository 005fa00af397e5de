// Option strategies (issue 53; docs/options.md) against the real Node entrypoint in its own process:
// - 20,000 option fills (2,500 iron condors opened and closed, each order's four legs a second apart and named by
//   an order id) imported: the commit with the order ids against the same file without them, the import as it was
//   (goal: within 1.15x); then the first read of the strategies, which groups and classifies the 10,000 trades
//   (the grouping runs when strategies are read, not in the commit), against the commit;
// - a strategies list page (50) of an account with 10,000 strategies against the trades list page (50) of the
//   same account (goal: within 2x), in turns, after a first read settled them.
import { importer } from "./imports.ts";
import { median } from "./startup.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";

export const CONDORS = 2_500;
export const SINGLES = 10_000;
export const STRATEGY_ROUNDS = 3;
export const LIST_ROUNDS = 30;

const occ = (root: string, expiry: string, right: "C" | "P", strike: number) => `${root.padEnd(6)}${expiry}${right}${String(strike * 1000).padStart(8, "0")}`;

/** 2,500 condors on SPY: each opened by one order (legs a second apart) and closed by another an hour later. */
function condorsCsv(withOrders: boolean): string {
  const lines = [`Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID${withOrders ? ",Order ID" : ""}`];
  const start = Date.parse("2025-01-02T14:30:00Z");
  for (let i = 0; i < CONDORS; i++) {
    const at = start + i * 3 * 3_600_000;
    const k = 400 + (i % 50) * 5;
    const legs = [[occ("SPY", "271217", "P", k - 10), "BUY", "0.50"], [occ("SPY", "271217", "P", k - 5), "SELL", "1.50"], [occ("SPY", "271217", "C", k + 5), "SELL", "1.40"], [occ("SPY", "271217", "C", k + 10), "BUY", "0.40"]] as const;
    for (const [n, [symbol, side, price]] of legs.entries()) {
      lines.push(`${new Date(at + n * 1000).toISOString()},${symbol},${side},1,${price},0.65,O-${i}-${n}${withOrders ? `,ORD-${i}` : ""}`);
    }
    for (const [n, [symbol, side]] of legs.entries()) {
      lines.push(`${new Date(at + 3_600_000 + n * 1000).toISOString()},${symbol},${side === "BUY" ? "SELL" : "BUY"},1,0.30,0.65,C-${i}-${n}${withOrders ? `,CLOSE-${i}` : ""}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** 10,000 single options, each bought and sold, ten minutes apart (no two of one strategy). */
function singlesCsv(): string {
  const lines = ["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID"];
  const start = Date.parse("2025-01-02T14:30:00Z");
  for (let i = 0; i < SINGLES; i++) {
    const symbol = occ(["SPY", "QQQ", "IWM", "AAPL"][i % 4]!, "271217", i % 2 ? "C" : "P", 100 + (i % 400));
    lines.push(`${new Date(start + i * 600_000).toISOString()},${symbol},BUY,1,2.00,0.65,S-${i}-a`);
    lines.push(`${new Date(start + i * 600_000 + 300_000).toISOString()},${symbol},SELL,1,2.10,0.65,S-${i}-b`);
  }
  return `${lines.join("\n")}\n`;
}

const MAPPING = { executedAt: "Date/Time", symbol: "Symbol", side: "Side", quantity: "Quantity", price: "Price", fees: "Fees", executionId: "Execution ID" };

export async function measureStrategies(env: Record<string, string>, databaseUrl: string) {
  // 20,000 rows a file: over the default CSV_IMPORT_MAX_ROWS (10,000), as an operator raises it.
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl, CSV_IMPORT_MAX_ROWS: "20000" });
  const base = server.url;
  try {
    const { cookie, newAccount, importFile } = await importer(base);
    const get = async (path: string, as = cookie) => {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { Cookie: as } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const [ordered, plain] = [condorsCsv(true), condorsCsv(false)];
    await importFile(plain, await newAccount(), MAPPING); // warm up
    const withOrders: number[] = [];
    const without: number[] = [];
    const firstReads: number[] = [];
    let strategies = 0;
    for (let i = 0; i < STRATEGY_ROUNDS; i++) {
      without.push((await importFile(plain, await newAccount(), MAPPING)).commitMs);
      const accountId = await newAccount();
      withOrders.push((await importFile(ordered, accountId, { ...MAPPING, orderId: "Order ID" })).commitMs);
      firstReads.push(await get(`/api/strategies?accountId=${accountId}&limit=50`));
      const res = await fetch(`${base}/api/strategies?accountId=${accountId}&kind=iron_condor&limit=200`, { headers: { Cookie: cookie } });
      strategies = ((await res.json()) as { strategies: unknown[] }).strategies.length;
    }

    // The list pages: another trader's 10,000 single options, their strategies settled by a first read.
    const other = await importer(base);
    const accountId = await other.newAccount();
    await other.importFile(singlesCsv(), accountId, MAPPING);
    const settleMs = await get(`/api/strategies?accountId=${accountId}&limit=50`, other.cookie);
    const listTimes: number[] = [];
    const tradeTimes: number[] = [];
    for (let i = 0; i < LIST_ROUNDS; i++) {
      listTimes.push(await get(`/api/strategies?accountId=${accountId}&limit=50`, other.cookie));
      tradeTimes.push(await get(`/api/trades?accountId=${accountId}&pageSize=50`, other.cookie));
    }
    return {
      commitWithOrdersMs: median(withOrders),
      commitWithoutMs: median(without),
      firstReadMs: median(firstReads),
      condorsOnFirstPage: strategies,
      singlesSettleMs: settleMs,
      strategiesPageMs: median(listTimes),
      tradesPageMs: median(tradeTimes),
    };
  } finally {
    await server.stop();
  }
}
