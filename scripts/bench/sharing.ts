// Sharing (issue 59; docs/sharing.md) on the real Node entrypoint: a journaled trade with notes and a 1R,
// shared with everything shown, then
// - GET /api/public/shares/:token (no session) beside GET /api/trades/:id for the owner, alternating, medians
//   (goal: within 1.5x);
// - 1,000 views of the link within a minute, 50 at a time: the link's view count after them (goal: exactly
//   1,000 more) and the rate reached.
import { registerBenchUser } from "./http.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";

export const SHARE_ROUNDS = 200;
export const VIEWS = 1_000;
const CONCURRENCY = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureSharing(env: Record<string, string>, databaseUrl: string) {
  // Readers from many addresses, as a link passed around is read (the per-reader limit is 120 a minute).
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl, TRUSTED_PROXIES: "127.0.0.1/32,::1/128" });
  let reader = 0;
  const address = () => `198.51.${Math.floor(reader / 250) % 250}.${(reader++ % 250) + 1}`;
  try {
    const { cookie } = await registerBenchUser(server.url, "share-bench");
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${server.url}${path}`, { ...init, headers: { Cookie: cookie, "Content-Type": "application/json", ...init.headers } });
      const text = await res.text();
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const account = await call("/api/accounts", { method: "POST", body: JSON.stringify({ name: "Share bench", currency: "USD", startingBalance: "10000", timezone: "America/New_York" }) });
    const accountId = account.id as string;
    await call(`/api/accounts/${accountId}`, { method: "PATCH", body: JSON.stringify({ defaultRisk: "100" }) });
    for (const [side, price, at] of [["buy", "50", "2026-10-05T14:00:00Z"], ["buy", "49.5", "2026-10-05T14:10:00Z"], ["sell", "52", "2026-10-05T15:00:00Z"]] as const) {
      await call("/api/fills", { method: "POST", body: JSON.stringify({ accountId, symbol: "AAPL", side, quantity: side === "sell" ? "200" : "100", price, fees: "1", executedAt: at }) });
    }
    const tradeId = ((await call(`/api/trades?accountId=${accountId}`)).trades as Array<{ id: string }>)[0]!.id;
    await call(`/api/trades/${tradeId}`, { method: "PATCH", body: JSON.stringify({ notes: "Bench notes", tags: ["bench"], stopPrice: "49" }) });
    const share = await call("/api/shares", { method: "POST", body: JSON.stringify({ kind: "trade", tradeId, show: { money: true, notes: true, images: true, chart: false } }) });
    const token = share.token as string;
    const anonymous = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { "X-Forwarded-For": address() } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    };
    const owner = async (path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    };
    const time = async (f: () => Promise<void>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    const publicPath = `/api/public/shares/${token}`;
    for (let i = 0; i < 20; i++) {
      await anonymous(publicPath);
      await owner(`/api/trades/${tradeId}`);
    }
    const shareMs: number[] = [];
    const tradeMs: number[] = [];
    for (let i = 0; i < SHARE_ROUNDS; i++) {
      shareMs.push(await time(() => anonymous(publicPath)));
      tradeMs.push(await time(() => owner(`/api/trades/${tradeId}`)));
    }
    const viewsOf = async () => ((await call("/api/shares")).shares as Array<{ id: string; views: number }>).find((s) => s.id === share.id)!.views;
    const before = await viewsOf();
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < VIEWS) {
          next++;
          await anonymous(publicPath);
        }
      }),
    );
    const burstMs = performance.now() - t0;
    const after = await viewsOf();
    return { shareMs: median(shareMs), tradeMs: median(tradeMs), counted: after - before, burstMs };
  } finally {
    await server.stop();
  }
}
