// The response bodies of the market routes as zod schemas, for the OpenAPI document (describeRoute) and so for
// the contract test that holds real responses to it; the requests' schemas are beside them (schema.ts).
import * as z from "zod/mini";
import { decimal, id, iso } from "../fields.ts";
import { assetClass } from "../trades/responses.ts";

const barOut = () => z.object({ t: iso(), open: decimal(), high: decimal(), low: decimal(), close: decimal(), volume: decimal() });

export const TradeChartSchema = z.object({
  tradeId: id(),
  symbol: z.string(),
  assetClass: assetClass(),
  direction: z.enum(["long", "short"]),
  multiplier: decimal(),
  closedAt: z.nullable(iso()),
  resolution: z.enum(["1m", "5m", "15m", "1h", "1d"]),
  from: iso(),
  to: iso(),
  fills: z.array(z.object({ id: id(), t: iso(), side: z.enum(["buy", "sell"]), quantity: decimal(), price: decimal(), role: z.enum(["open", "add", "reduce", "close"]) })),
  stopPrice: z.nullable(decimal()),
  targetPrice: z.nullable(decimal()),
  bars: z.array(barOut()).check(z.describe("Bars of the resolution from `from` to `to`, by their start; 5m, 15m and 1h are read from 1-minute bars")),
  averageCost: z.array(z.object({ t: iso(), price: z.nullable(decimal()) })).check(z.describe("The average cost after each fill; null once flat (the running P&L is the browser's: lib/market/running-pnl.ts)")),
  coverage: z.object({
    sources: z.array(z.enum(["provider", "upload"])),
    key: z.boolean().check(z.describe("Whether you have a bar provider key")),
    missing: z.array(z.object({ day: z.string(), status: z.enum(["none", "queued", "fetching", "failed"]), detail: z.nullable(z.string()) })),
  }),
  note: z.nullable(z.string()),
});

/** POST /api/bars/upload: a multipart form. */
export const BarsUploadBodySchema = z.object({
  file: z.string().check(z.describe("A candle CSV: a header naming time, open, high, low, close, volume; time ISO 8601 with an offset or epoch seconds; at most 5 MB and 50,000 bars")),
  symbol: z.string().check(z.describe("A stock or futures symbol")),
  resolution: z.enum(["1m", "1d"]),
});

export const BarsUploadSchema = z.object({
  symbol: z.string(),
  resolution: z.enum(["1m", "1d"]),
  bars: z.number(),
  from: iso().check(z.describe("The first bar's start")),
  to: iso().check(z.describe("The last bar's start")),
});

export const FuturesListSchema = z.object({
  futures: z.array(
    z.object({
      root: z.string(),
      name: z.string(),
      exchange: z.enum(["CME", "CBOT", "NYMEX", "COMEX", "ICE US", "CFE"]),
      group: z.string(),
      multiplier: z.string().check(z.describe("Money per point of the quoted price, per contract")),
      tickSize: z.string(),
      currency: z.string(),
    }),
  ),
});

export const SymbolListSchema = z.object({ symbols: z.array(z.object({ ticker: z.string(), name: z.string(), exchange: z.nullable(z.string()) })) });

export const QuoteSchema = z.object({ symbol: z.string(), price: decimal(), currency: z.nullable(z.string()), asOf: iso(), delayed: z.literal(true), stale: z.boolean() });
