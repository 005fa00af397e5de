// A local stand-in for the rate service (Frankfurter's API over the ECB's reference rates, docs/currencies.md),
// at FX_RATES_BASE_URL. Frankfurter asks for no key, and neither does this. It answers as Frankfurter does:
//   GET /{date}?base=EUR          -> {amount: 1, base: "EUR", date, rates}; a date without rates of its own
//                                     (weekend, holiday) answers the latest earlier date's, under that date
//   GET /{from}..{to}?base=EUR    -> {amount: 1, base: "EUR", start_date, end_date, rates: {date: rates}}, the
//                                     business days only
// Rates per 1 EUR on a weekday that is not in `holidays`: USD 1.1 + day of month / 1000, GBP 0.85, JPY 160,
// CHF 0.95 (unless `rates` sets a date's own). `mode` breaks it: "404", "500", "garbage" (not JSON), "empty"
// (JSON without rates), "hang" (never answers). Requests are recorded, so tests see each date asked once.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type FxMode = "ok" | "404" | "500" | "garbage" | "empty" | "hang";

export type FxServer = {
  url: string;
  env: { FX_RATES_BASE_URL: string };
  /** Paths asked, e.g. "/2026-03-02..2026-03-20". */
  requests: string[];
  holidays: Set<string>;
  rates: Map<string, Record<string, number>>;
  mode: FxMode;
  close(): Promise<void>;
};

/** The stand-in's USD per 1 EUR on a business day. */
export const usdPerEur = (day: string) => 1.1 + Number(day.slice(8, 10)) / 1000;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export async function startFxServer(): Promise<FxServer> {
  const sockets = new Set<Socket>();
  const state: Omit<FxServer, "url" | "env" | "close"> = { requests: [], holidays: new Set(), rates: new Map(), mode: "ok" };
  const ratesOf = (day: string): Record<string, number> | null => {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6 || state.holidays.has(day)) return null;
    return state.rates.get(day) ?? { USD: usdPerEur(day), GBP: 0.85, JPY: 160, CHF: 0.95 };
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    state.requests.push(url.pathname);
    if (state.mode === "hang") return;
    if (state.mode === "404") return send(res, 404, { message: "not found" });
    if (state.mode === "500") return send(res, 500, { message: "internal error" });
    if (state.mode === "garbage") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<html>maintenance</html>");
    }
    if (state.mode === "empty") return send(res, 200, { amount: 1, base: "EUR" });
    if (url.searchParams.get("base") !== "EUR") return send(res, 422, { message: "only EUR here" });
    const series = /^\/(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(url.pathname);
    if (series) {
      const [, from, to] = series as unknown as [string, string, string];
      const rates: Record<string, Record<string, number>> = {};
      for (let d = from; d <= to; d = addDays(d, 1)) {
        const r = ratesOf(d);
        if (r) rates[d] = r;
      }
      return send(res, 200, { amount: 1, base: "EUR", start_date: Object.keys(rates)[0] ?? from, end_date: Object.keys(rates).at(-1) ?? to, rates });
    }
    const one = /^\/(\d{4}-\d{2}-\d{2})$/.exec(url.pathname);
    if (!one) return send(res, 404, { message: "not found" });
    for (let d = one[1]!, i = 0; i < 15; d = addDays(d, -1), i++) {
      const r = ratesOf(d);
      if (r) return send(res, 200, { amount: 1, base: "EUR", date: d, rates: r });
    }
    return send(res, 404, { message: "not found" });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    env: { FX_RATES_BASE_URL: url },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  }) as FxServer;
}
