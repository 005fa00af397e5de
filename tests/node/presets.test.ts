// Broker presets against sample exports (tests/fixtures/brokers/<id>.csv), and the general reading
// capabilities the presets rely on. Pure parsing: no database, no HTTP.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors.ts";
import { fromUnits, toUnits } from "../../lib/money.ts";
import { normalizeBrokerSymbol, normalizeCsv, parseTimestamp, readCsv, sideOf, type StagedFill } from "../../lib/imports/normalize.ts";
import { PRESETS, type Preset } from "../../lib/imports/presets.ts";
import { ImportMappingSchema, ImportOptionsSchema, type ImportMapping, type ImportOptions } from "../../lib/imports/schema.ts";

const ZONE = "America/New_York";
/** The account the files are read for: its zone and currency. */
const ACCOUNT = { timezone: ZONE, currency: "USD" };
const MAX_ROWS = 1000;

const fixture = (id: string) => readFileSync(new URL(`../fixtures/brokers/${id}.csv`, import.meta.url), "utf8");

/** The preset's options, plus what the request has to add for formats that cannot carry it themselves. */
function optionsFor(preset: Preset): ImportOptions {
  return preset.id === "das" ? { ...preset.options, tradeDate: "2024-01-19" } : preset.options;
}

type Fill = { symbol: string; assetClass: string; side: string; quantity: string; price: string; fees: string; executedAt: string; executionId: string | null };

const compact = (f: StagedFill): Fill => ({
  symbol: f.symbol,
  assetClass: f.asset_class,
  side: f.side,
  quantity: f.quantity,
  price: f.price,
  fees: f.fees,
  executedAt: f.executed_at,
  executionId: f.execution_id,
});

const stock = (symbol: string, side: string, quantity: string, price: string, fees: string, executedAt: string, executionId: string | null = null): Fill => ({
  symbol,
  assetClass: "stock",
  side,
  quantity,
  price,
  fees,
  executedAt,
  executionId,
});
const option = (...args: Parameters<typeof stock>): Fill => ({ ...stock(...args), assetClass: "option" });
const future = (...args: Parameters<typeof stock>): Fill => ({ ...stock(...args), assetClass: "future" });

/** Per preset: every fill the sample must give, in file order, and how many rows its filters skip. */
const EXPECTED: Record<string, { fills: Fill[]; skipped: number }> = {
  generic: {
    skipped: 0,
    fills: [
      stock("AAPL", "buy", "100", "191.50", "1.0000000000", "2024-01-19T14:30:15.000Z", "G-1001"),
      stock("AAPL", "sell", "100", "192.25", "1.0000000000", "2024-01-19T15:02:41.000Z", "G-1002"),
      future("ESH24", "sell", "1", "4812.25", "2.2500000000", "2024-01-19T16:05:00.000Z", "G-1003"),
      future("ESH24", "buy", "1", "4803.50", "2.2500000000", "2024-01-19T16:48:30.000Z", "G-1004"),
    ],
  },
  "ibkr-flex": {
    skipped: 1, // the EUR.USD conversion
    fills: [
      stock("AAPL", "buy", "100", "191.5", "1.0000000000", "2024-01-19T14:30:15.000Z", "0000e0d5.65aa4c1f.01.01"),
      stock("AAPL", "sell", "100", "192.25", "1.0036445000", "2024-01-19T15:02:41.000Z", "0000e0d5.65aa5d92.01.01"),
      option("AAPL  240216C00195000", "buy", "2", "3.45", "1.3000000000", "2024-01-19T15:31:07.000Z", "0000e1a2.65aa6e01.01.01"),
      future("ESH24", "sell", "1", "4812.25", "2.0500000000", "2024-01-19T16:05:00.000Z", "0000f1b3.65aa7f55.01.01"),
      option("MSFT  240216C00400000", "buy", "1", "5.2", "0.6500000000", "2024-01-19T16:15:00.000Z", "0000e1a2.65aa6f02.01.01"),
      // The call exercised (a book trade without an execution id): closed at 0, 100 MSFT bought at the strike.
      option("MSFT  240216C00400000", "sell", "1", "0", "0.0000000000", "2024-02-16T21:20:00.000Z"),
      stock("MSFT", "buy", "100", "400", "0.0000000000", "2024-02-16T21:20:00.000Z"),
    ],
  },
  "ibkr-activity": {
    skipped: 14, // subtotals, totals, the forex header and total, the forex trade, the instrument information section
    fills: [
      stock("AAPL", "buy", "100", "191.5", "1.0000000000", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "1.0036445000", "2024-01-19T15:02:41.000Z"),
      stock("AAPL", "buy", "100", "190", "0.0000000000", "2024-02-16T21:20:00.000Z"), // delivered by the put's assignment (A;O), at the strike
      stock("MSFT", "buy", "1000", "396.1", "5.0000000000", "2024-01-19T18:45:03.000Z"),
      option("AAPL  240216P00190000", "sell", "1", "2.5", "1.0500000000", "2024-01-19T16:00:00.000Z"),
      option("AAPL  240216P00190000", "buy", "1", "0", "0.0000000000", "2024-02-16T21:20:00.000Z"), // assigned (A;C): closed at 0
      option("SPY   240216C00500000", "buy", "1", "0.45", "1.0500000000", "2024-01-19T16:15:00.000Z"),
      option("SPY   240216C00500000", "sell", "1", "0", "0.0000000000", "2024-02-16T21:20:00.000Z"), // expired (C;Ep): closed at 0
      future("ESH24", "sell", "1", "4812.25", "2.0500000000", "2024-01-19T16:05:00.000Z"),
    ],
  },
  "schwab-tos": {
    skipped: 0,
    // Fees from the Cash Balance section, charged at the fill's second; the call from Symbol, Exp, Strike, Type.
    fills: [
      stock("AAPL", "buy", "100", "191.50", "0", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "0.1600000000", "2024-01-19T15:02:41.000Z"),
      option("SPY   240216C00480000", "buy", "2", "4.15", "1.3400000000", "2024-01-19T15:31:07.000Z"),
      future("ESH24", "sell", "1", "4812.25", "0", "2024-01-19T16:05:00.000Z"),
      stock("TSLA", "sell", "50", "208.80", "0.0900000000", "2024-01-19T19:12:09.000Z"),
    ],
  },
  webull: {
    skipped: 1, // the cancelled order
    fills: [
      stock("AAPL", "buy", "100", "191.50", "0", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "0", "2024-01-19T15:02:41.000Z"),
      option("SPY   240216C00480000", "buy", "2", "4.15", "0", "2024-01-19T15:31:07.000Z"),
      stock("NVDA", "sell", "10", "485.12", "0", "2024-07-19T17:15:42.000Z"), // EDT
    ],
  },
  robinhood: {
    skipped: 3, // the deposit, the dividend, the disclaimer
    // Fees: what separates Amount from the notional (120.00 paid for 119.99950688 of VTI; 7,690 - 7,689.96).
    fills: [
      stock("VTI", "buy", "0.512468", "234.16", "0.0004931200", "2024-01-22T05:00:00.000Z"),
      stock("AAPL", "sell", "40", "192.25", "0.0400000000", "2024-01-19T05:00:00.002Z"),
      option("SPY   240216C00480000", "buy", "2", "4.15", "0.0000000000", "2024-01-19T05:00:00.001Z"),
      stock("AAPL", "buy", "100", "191.50", "0.0000000000", "2024-01-19T05:00:00.000Z"),
    ],
  },
  fidelity: {
    skipped: 5, // the dividend, the transfer, three disclaimer lines
    fills: [
      option("SPY   240216C00480000", "buy", "2", "4.15", "1.3400000000", "2024-01-19T05:00:00.002Z"),
      stock("AAPL", "sell", "40", "192.25", "0.0400000000", "2024-01-19T05:00:00.001Z"),
      stock("AAPL", "buy", "100", "191.5", "0", "2024-01-19T05:00:00.000Z"),
      option("QQQ   240126P00412500", "sell", "1", "2.87", "0.6800000000", "2024-01-17T05:00:00.000Z"),
    ],
  },
  etrade: {
    skipped: 1, // the transfer
    // Options from Description; fees from Amount (Commission leaves out the regulatory fees).
    fills: [
      stock("TSLA", "buy", "50", "207.35", "0.0000000000", "2024-01-19T05:00:00.004Z"),
      stock("TSLA", "sell", "50", "208.80", "0.0900000000", "2024-01-19T05:00:00.003Z"),
      option("SPY   240216C00480000", "buy", "2", "4.15", "1.3400000000", "2024-01-19T05:00:00.002Z"),
      stock("AAPL", "sell", "40", "192.25", "0.0400000000", "2024-01-19T05:00:00.001Z"),
      stock("AAPL", "buy", "100", "191.50", "0.0000000000", "2024-01-19T05:00:00.000Z"),
      option("QQQ   240126P00412500", "sell", "1.0", "2.87", "0.5400000000", "2024-01-17T05:00:00.000Z"),
    ],
  },
  tastytrade: {
    skipped: 3, // the deposit, the reverse split (a corporate action), the expiration without an Action (the journal closes it)
    fills: [
      // Deliveries: the call expired (closed at 0); the put assigned (closed at 0) delivers 100 AAPL bought at the strike.
      option("SPY   240216C00500000", "sell", "1", "0.00", "0.0000000000", "2024-02-16T22:00:00.000Z"),
      stock("AAPL", "buy", "100", "190.00", "5.0000000000", "2024-02-16T22:00:00.000Z"),
      option("AAPL  240216P00190000", "buy", "1", "0.00", "0.0000000000", "2024-02-16T22:00:00.000Z"),
      option("SPY   240216P00470000", "buy", "2", "3.10", "0.2600000000", "2024-01-19T19:45:52.000Z"),
      option("SPY   240216C00500000", "buy", "1", "0.45", "1.1300000000", "2024-01-19T16:15:00.000Z"),
      option("AAPL  240216P00190000", "sell", "1", "2.50", "1.1400000000", "2024-01-19T16:00:00.000Z"),
      option("SPY   240216P00470000", "sell", "2", "3.85", "2.2800000000", "2024-01-19T15:31:07.000Z"),
      stock("AAPL", "sell", "100", "192.25", "0.2400000000", "2024-01-19T15:02:41.000Z"),
      stock("AAPL", "buy", "100", "191.50", "0.0800000000", "2024-01-19T14:30:15.000Z"),
    ],
  },
  tradestation: {
    skipped: 1, // the cancelled short sale
    fills: [
      stock("AAPL", "buy", "100", "191.50", "1.0000000000", "2024-01-19T14:30:15.000Z", "1-5123-4412"),
      stock("AAPL", "sell", "100", "192.25", "1.0000000000", "2024-01-19T15:02:41.000Z", "1-5123-4498"),
      option("SPY   240216C00480000", "buy", "2", "4.15", "1.2000000000", "2024-01-19T15:31:07.000Z", "1-5123-4530"),
      future("ESH24", "sell", "1", "4812.25", "2.5200000000", "2024-01-19T16:05:00.000Z", "1-5123-4601"),
    ],
  },
  tradovate: {
    skipped: 0,
    fills: [
      future("MESH24", "buy", "2", "4801.25", "0.9400000000", "2024-01-19T14:30:15.482Z", "161473224411"),
      future("MESH24", "sell", "2", "4806.50", "0.9400000000", "2024-01-19T14:42:03.117Z", "161473224530"),
      future("NQH24", "sell", "1", "17321.75", "2.0900000000", "2024-01-19T15:05:44.901Z", "161473225102"),
      future("NQH24", "buy", "1", "17308.00", "2.0900000000", "2024-01-19T15:11:20.006Z", "161473225340"),
    ],
  },
  ninjatrader: {
    skipped: 0,
    fills: [
      future("ESH24", "buy", "2", "4801.25", "4.1800000000", "2024-01-19T14:30:15.000Z", "8c6b1f0e4a9d4f3c9e2b7a5d1c0f3e21"),
      future("ESH24", "sell", "1", "4805.50", "2.0900000000", "2024-01-19T14:41:02.000Z", "0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f50"),
      future("ESH24", "sell", "1", "4799.75", "2.0900000000", "2024-01-19T14:52:47.000Z", "4e5f6a7b8c9d4e0f1a2b3c4d5e6f7a81"),
      future("MNQH24", "sell", "3", "17321.25", "1.2900000000", "2024-01-19T19:05:33.000Z", "9a8b7c6d5e4f4a3b2c1d0e9f8a7b6c52"),
      future("MNQH24", "buy", "3", "17309.50", "1.2900000000", "2024-01-19T19:31:08.000Z", "1b2c3d4e5f6a4b7c8d9e0f1a2b3c4d63"),
    ],
  },
  das: {
    skipped: 0,
    fills: [
      stock("AAPL", "buy", "100", "191.5", "0", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "0", "2024-01-19T15:02:41.000Z"),
      stock("TSLA", "sell", "50", "208.8", "0", "2024-01-19T19:12:09.000Z"),
      stock("TSLA", "buy", "50", "207.35", "0", "2024-01-19T20:48:50.000Z"),
    ],
  },
  tradezero: {
    skipped: 0,
    fills: [
      stock("AAPL", "buy", "100", "191.5", "0.3300000000", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "0.0100000000", "2024-01-19T15:02:41.000Z"), // 0.21 of fees, 0.20 ECN rebate
      stock("TSLA", "sell", "50", "208.8", "0.2700000000", "2024-01-19T19:12:09.000Z"),
      stock("TSLA", "buy", "50", "207.35", "0.0000000000", "2024-01-19T20:48:50.000Z"), // rebate larger than the fees
    ],
  },
  schwab: {
    skipped: 3, // the dividend, the transfer and the "Transactions Total" line
    fills: [
      stock("AAPL", "sell", "40", "192.25", "0.0400000000", "2024-01-19T05:00:00.002Z"),
      stock("AAPL", "buy", "100", "191.50", "0", "2024-01-19T05:00:00.001Z"),
      option("SPY   240216C00480000", "buy", "2", "4.15", "1.3200000000", "2024-01-19T05:00:00.000Z"),
      // Posted on the 18th "as of" the 17th: the trade's day is the 17th.
      stock("TSLA", "sell", "10", "212.50", "0.0500000000", "2024-01-17T05:00:00.000Z"),
    ],
  },
  vanguard: {
    skipped: 2, // the dividend and the sweep into the money market fund (the holdings above the header are not rows)
    fills: [
      stock("AAPL", "sell", "40.00000", "192.2500", "0.0400000000", "2024-01-19T05:00:00.001Z"),
      stock("AAPL", "buy", "100.00000", "191.5000", "0.0000000000", "2024-01-19T05:00:00.000Z"),
      stock("VTI", "buy", "150.00000", "236.1200", "0.0000000000", "2024-01-16T05:00:00.000Z"),
    ],
  },
  firstrade: {
    skipped: 2, // the dividend and the deposit
    fills: [
      stock("AAPL", "sell", "40.0", "192.25", "0.0400000000", "2024-01-19T05:00:00.001Z"),
      stock("AAPL", "buy", "100.0", "191.5", "0.0000000000", "2024-01-19T05:00:00.000Z"),
      stock("TSLA", "sell", "10.0", "212.5", "0.0500000000", "2024-01-17T05:00:00.000Z"),
    ],
  },
  zerodha: {
    skipped: 0,
    fills: [
      // India time (UTC+5:30) whatever the account's zone.
      stock("INFY", "buy", "50.000000", "1640.250000", "0", "2024-01-19T03:51:45.000Z", "55223311"),
      stock("INFY", "sell", "50.000000", "1652.900000", "0", "2024-01-19T08:32:10.000Z", "55229876"),
      stock("RELIANCE", "buy", "10.000000", "2735.500000", "0", "2024-01-18T04:35:03.000Z", "41230017"),
      stock("RELIANCE", "buy", "5.000000", "2736.150000", "0", "2024-01-18T04:35:04.000Z", "41230018"),
    ],
  },
  tradervue: {
    skipped: 0,
    fills: [
      stock("AAPL", "buy", "100", "191.50", "0", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "0", "2024-01-19T15:02:41.000Z"),
      stock("TSLA", "sell", "10", "212.40", "0", "2024-01-19T16:00:00.000Z"),
      stock("TSLA", "buy", "10", "210.10", "0", "2024-01-19T16:45:00.000Z"),
      stock("AAPL", "buy", "50", "193.00", "0", "2024-01-22T14:35:00.000Z"),
      stock("AAPL", "sell", "50", "192.00", "0", "2024-01-22T20:55:00.000Z"),
      stock("NVDA", "buy", "20", "600.00", "0", "2024-01-23T15:00:00.000Z"),
      stock("NVDA", "sell", "20", "605.50", "0", "2024-01-23T15:30:00.000Z"),
    ],
  },
  tradezella: {
    skipped: 1,
    fills: [
      stock("AAPL", "buy", "100", "191.5", "0", "2024-01-19T14:30:15.000Z"),
      stock("AAPL", "sell", "100", "192.25", "1.3500000000", "2024-01-19T15:02:41.000Z"),
      stock("TSLA", "sell", "10", "212.4", "0", "2024-01-19T16:00:00.000Z"),
      stock("TSLA", "buy", "10", "210.1", "1.0000000000", "2024-01-19T16:45:00.000Z"),
      stock("NVDA", "buy", "20", "600", "0", "2024-01-23T15:00:00.000Z"),
      stock("NVDA", "sell", "20", "605.5", "0.0000000000", "2024-01-23T15:30:00.000Z"),
    ],
  },
  alpaca: {
    skipped: 1,
    fills: [
      stock("AAPL", "buy", "100", "191.5", "0", "2024-01-19T14:30:15.432Z", "20240119093015432::8d6f3b52-7a51-4c2b-9a4e-1f0e5d3c2b1a"),
      stock("AAPL", "sell", "60", "192.25", "0", "2024-01-19T15:02:41.118Z", "20240119100241118::2b7c1d9e-1f4a-4e8b-b6a2-9c3d5e7f1a2b"),
      stock("TSLA", "sell", "10", "212.4", "0", "2024-01-19T16:00:00.000Z", "20240119110000000::3c8d2eaf-2a5b-4f9c-87b3-ad4e6f8a2b3c"),
    ],
  },
  kraken: {
    skipped: 0,
    fills: [
      stock("XXBTZUSD", "buy", "0.10000000", "41250.00000", "6.6000000000", "2024-01-19T14:30:15.432Z", "TJKSA2-DH6ZE-N7G2XU"),
      stock("XXBTZUSD", "sell", "0.05000000", "41890.10000", "5.4457100000", "2024-01-19T18:02:41.118Z", "TCWJEG-FL4SZ-3FKGH6"),
      stock("XETHZUSD", "buy", "1.00000000", "2520.45000", "4.0327200000", "2024-01-18T09:15:00.000Z", "TQWE3K-7LMNA-PQ5RTY"),
    ],
  },
  coinbase: {
    skipped: 0,
    fills: [
      stock("BTC-USD", "buy", "0.05", "41250.12", "8.2500240000", "2024-01-19T14:30:15.123Z", "512345678"),
      stock("BTC-USD", "sell", "0.02", "41890.10", "3.3512080000", "2024-01-19T18:02:41.877Z", "512349911"),
      stock("ETH-USD", "buy", "1.5", "2520.45", "15.1227000000", "2024-01-18T09:15:00.000Z", "498812234"),
    ],
  },
  trading212: {
    skipped: 2, // the deposit and the dividend
    fills: [
      stock("AAPL", "buy", "100.0000000000", "191.50", "0", "2024-01-19T14:30:15.000Z", "EOF2983710224"),
      stock("AAPL", "sell", "40.0000000000", "192.25", "0", "2024-01-19T15:02:41.000Z", "EOF2983714410"),
      stock("TSLA", "buy", "2.5000000000", "212.50", "0", "2024-01-17T15:45:09.000Z", "EOF2983655871"),
    ],
  },
  degiro: {
    skipped: 0,
    fills: [
      // Amsterdam time (CET, UTC+1); sells carry negative quantities; the ISIN is the symbol.
      stock("NL0010273215", "sell", "5", "689.40", "2.0000000000", "2024-01-19T14:30:00.000Z"),
      stock("NL0010273215", "buy", "10", "681.20", "2.0000000000", "2024-01-19T08:02:00.000Z"),
      stock("DE0007164600", "buy", "20", "160.52", "4.9000000000", "2024-01-18T10:47:00.000Z"),
    ],
  },
};

/** Per sample: the total quantity and fees of the fills it gives, added up by hand from the file. */
const TOTALS: Record<string, [string, string]> = {
  generic: ["202.00", "6.50"],
  "ibkr-flex": ["305.00", "6.0036445"], // 1 + 1.0036445 + 1.30 + 2.05 + 0.65; the EUR.USD conversion is listed as skipped
  "ibkr-activity": ["1305.00", "11.1536445"], // 1 + 1.0036445 + 5 + 2.05 + 1.05 + 1.05
  "schwab-tos": ["253.00", "1.59"], // 0.16 + (0.04 + 1.30) + 0.09 from Cash Balance
  webull: ["212.00", "0.00"],
  robinhood: ["142.512468", "0.04049312"], // 0.04 (AAPL) + 0.00049312 (VTI: 120.00 - 0.512468 x 234.16)
  fidelity: ["143.00", "2.06"], // (1.30 + 0.04) + 0.04 + (0.65 + 0.03)
  etrade: ["243.00", "2.01"], // 0.09 + 1.34 + 0.04 + 0.54
  tastytrade: ["308.00", "10.13"], // 0.26 + (2.00 + 0.28) + 0.24 + 0.08 + 5 (the assignment) + (1 + 0.13) + (1 + 0.14)
  tradestation: ["203.00", "5.72"],
  tradovate: ["6.00", "6.06"],
  ninjatrader: ["10.00", "10.94"],
  das: ["300.00", "0.00"],
  tradezero: ["300.00", "0.61"], // 0.33 + (0.21 - 0.20 rebate) + 0.27 + 0 (a 0.10 rebate over 0.02 of fees is no fee)
  schwab: ["152.00", "1.41"], // 40 + 100 + 2 + 10; 0.04 + 1.32 + 0.05
  vanguard: ["290.00", "0.04"], // 40 + 100 + 150
  firstrade: ["150.00", "0.09"], // 40 + 100 + 10; (0 + 0.04) + (0 + 0.05)
  zerodha: ["115.00", "0.00"], // 50 + 50 + 10 + 5; the tradebook carries no charges
  tradervue: ["360.00", "0.00"], // 2 x (100 + 10 + 50 + 20): each trade is an open and a close; Tradervue's trades export has no fee column
  tradezella: ["260.00", "2.35"], // 2 x (100 + 10 + 20), the backtest left out; 1 + 0.35 and 1, on the closing fills
  alpaca: ["170.00", "0.00"], // 100 + 60 + 10; Alpaca's fills carry no fee
  kraken: ["1.15", "16.07843"], // 0.1 + 0.05 + 1; 6.60 + 5.44571 + 4.03272 (0.16 % and 0.26 % of the cost)
  coinbase: ["1.57", "26.723932"], // 0.05 + 0.02 + 1.5; 8.250024 + 3.351208 + 15.1227 (0.4 % of each notional)
  trading212: ["142.50", "0.00"], // 100 + 40 + 2.5
  degiro: ["35.00", "8.90"], // 5 + 10 + 20; 2.00 + 2.00 + 4.90
};

/** The account each sample is read for: DEGIRO's is in euros (its rows say EUR); the rest in dollars. */
const accountFor = (id: string) => (id === "degiro" ? { ...ACCOUNT, currency: "EUR" } : ACCOUNT);

describe("broker presets", () => {
  it("have unique ids, valid mappings and options, and one expectation each", () => {
    const ids = PRESETS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.toSorted()).toEqual(Object.keys(EXPECTED).toSorted());
    for (const p of PRESETS) {
      expect(ImportMappingSchema.safeParse(p.mapping).success, p.id).toBe(true);
      expect(ImportOptionsSchema.safeParse(p.options).success, p.id).toBe(true);
    }
  });

  it.each(PRESETS.map((p) => [p.id, p] as const))("%s: headers are the sample's header row", (_id, preset) => {
    expect(readCsv(fixture(preset.id), optionsFor(preset), MAX_ROWS).header).toEqual(preset.headers);
  });

  it.each(PRESETS.map((p) => [p.id, p] as const))("%s: the sample gives the expected fills and no errors", (id, preset) => {
    const options = optionsFor(preset);
    const result = normalizeCsv(fixture(id), preset.mapping, options, accountFor(id), MAX_ROWS);
    expect(result.errors).toEqual([]);
    expect(result.fills.map(compact)).toEqual(EXPECTED[id]!.fills);
    expect(result.skipped).toHaveLength(EXPECTED[id]!.skipped);
  });

  it.each(PRESETS.map((p) => [p.id, p] as const))("%s: every row is imported or listed with its reason; quantities and fees as counted by hand", (id, preset) => {
    const options = optionsFor(preset);
    const shape = readCsv(fixture(id), options, MAX_ROWS);
    const result = normalizeCsv(fixture(id), preset.mapping, options, accountFor(id), MAX_ROWS);
    expect(result.rowCount).toBe(shape.rowCount);
    const accounted = [...new Set([...result.fills.map((f) => f.row), ...result.skipped.map((k) => k.row), ...result.errors.map((e) => e.row)])].sort((a, b) => a - b);
    const first = shape.header ? (shape.headerRow ?? 1) + 1 : 1;
    expect(accounted).toEqual(Array.from({ length: shape.rowCount }, (_, i) => first + i));
    for (const k of result.skipped) expect(k.reason.length, `row ${k.row}`).toBeGreaterThan(5);
    const sum = (values: string[]) => fromUnits(values.reduce((a, v) => a + toUnits(v), 0n));
    expect([sum(result.fills.map((f) => f.quantity)), sum(result.fills.map((f) => f.fees))]).toEqual(TOTALS[id]);
  });

  it("rows with a date and no time: the layouts that write none are known, and each takes a date's fills oldest first (their files list rows newest first)", () => {
    const untimed = (f: StagedFill) => Date.parse(f.executed_at) % 1000 < 100 && new Date(f.executed_at).toLocaleTimeString("en-US", { timeZone: ZONE, hour12: false }) === "00:00:00";
    const noTime = PRESETS.filter((p) => p.id !== "das" && normalizeCsv(fixture(p.id), p.mapping, optionsFor(p), accountFor(p.id), MAX_ROWS).fills.every(untimed)).map((p) => p.id);
    expect(noTime.toSorted()).toEqual(["etrade", "fidelity", "firstrade", "robinhood", "schwab", "vanguard"]);
    for (const id of noTime) {
      const preset = PRESETS.find((p) => p.id === id)!;
      // Each of these layouts says it lists its rows newest first, for a file whose dates cannot tell.
      expect(preset.options.rowOrder, id).toBe("newest-first");
      const { fills } = normalizeCsv(fixture(id), preset.mapping, optionsFor(preset), accountFor(id), MAX_ROWS);
      const byDate = new Map<string, StagedFill[]>();
      for (const f of fills) byDate.set(f.executed_at.slice(0, 19), [...(byDate.get(f.executed_at.slice(0, 19)) ?? []), f]);
      for (const [date, sameDate] of byDate) {
        // Later in the file is earlier in the day: strictly, a millisecond apart, on the date's own second.
        const times = sameDate.map((f) => Date.parse(f.executed_at));
        expect(times, `${id} ${date}`).toEqual(times.map((_, k) => Date.parse(`${date}.000Z`) + (sameDate.length - 1 - k)));
      }
    }
  });

  it("rows with a date and no time: the file's own dates decide its order; one date alone follows the layout, else file order", () => {
    const preset = PRESETS.find((p) => p.id === "schwab")!;
    const header = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
    const sell = '"01/19/2024","Sell","AAPL","APPLE INC","40","$192.25","$0.04","$7,689.96"';
    const buy = '"01/19/2024","Buy","AAPL","APPLE INC","100","$191.50","","-$19,150.00"';
    const older = '"01/17/2024","Buy","MSFT","MICROSOFT CORP","5","$390.00","","-$1,950.00"';
    const order = (rows: string[], options: ImportOptions = preset.options) =>
      normalizeCsv([header, ...rows].join("\n"), preset.mapping, options, ACCOUNT, MAX_ROWS)
        .fills.toSorted((a, b) => a.executed_at.localeCompare(b.executed_at))
        .map((f) => `${f.side} ${f.quantity} ${f.symbol}`);
    // Newest first (Schwab's own): the buy listed second happened first.
    expect(order([sell, buy, older])).toEqual(["buy 5 MSFT", "buy 100 AAPL", "sell 40 AAPL"]);
    // The same rows oldest first: file order.
    expect(order([older, buy, sell])).toEqual(["buy 5 MSFT", "buy 100 AAPL", "sell 40 AAPL"]);
    // One date alone: the layout's order (newest first); a layout that says nothing keeps file order.
    expect(order([sell, buy])).toEqual(["buy 100 AAPL", "sell 40 AAPL"]);
    const { rowOrder: _unsaid, ...silent } = preset.options;
    expect(order([buy, sell], silent)).toEqual(["buy 100 AAPL", "sell 40 AAPL"]);
    // Rows with times are never moved.
    const timed = normalizeCsv(["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID", "2024-01-19T10:00:00,AAPL,SELL,40,192,0,", "2024-01-19T10:00:00,AAPL,BUY,100,191,0,"].join("\n"),
      PRESETS[0]!.mapping, PRESETS[0]!.options, ACCOUNT, MAX_ROWS);
    expect(timed.fills.map((f) => f.executed_at)).toEqual(["2024-01-19T15:00:00.000Z", "2024-01-19T15:00:00.000Z"]);
  });

  it("das: without options.tradeDate the file is refused with a clear message", () => {
    const preset = PRESETS.find((p) => p.id === "das")!;
    expect(() => normalizeCsv(fixture("das"), preset.mapping, preset.options, ACCOUNT, MAX_ROWS)).toThrow(/time with options\.tradeDate/);
  });
});

/** Runs a small CSV through normalizeCsv. */
function read(csv: string, mapping: ImportMapping, options: ImportOptions = {}, zone = ZONE, currency = "USD") {
  return normalizeCsv(csv, mapping, options, { timezone: zone, currency }, MAX_ROWS);
}

function validationFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe("VALIDATION_ERROR");
    return (error.fields ?? []).map((f) => f.message);
  }
  throw new Error("expected a VALIDATION_ERROR");
}

const BASIC: ImportMapping = { executedAt: "When", symbol: "Sym", side: "Side", quantity: "Qty", price: "Px" };

describe("side words", () => {
  it("matches extra words ending in * as prefixes, built-in words and other extra words exactly", () => {
    const options: ImportOptions = { sides: { buy: ["YOU BOUGHT*"], sell: ["you  sold *", "Sold Short"] } };
    expect(sideOf("YOU BOUGHT APPLE INC (AAPL) (Cash)", options)).toBe("buy");
    expect(sideOf(" you   sold  CLOSING TRANSACTION ", options)).toBe("sell");
    expect(sideOf("sold short", options)).toBe("sell");
    expect(sideOf("SOLD SHORTLY", options)).toBeNull();
    expect(sideOf("YOU SOLDIER", options)).toBeNull(); // "you sold *" keeps its space
    expect(sideOf("BUYING", options)).toBeNull(); // built-in words stay exact
    expect(sideOf("bot", {})).toBe("buy");
  });
});

describe("timestamps", () => {
  it("reads a trailing US zone abbreviation as that zone's wall clock, whatever the account's zone", () => {
    expect(parseTimestamp("01/19/2024 09:30:15 EST", "MM/DD/YYYY", "Europe/Berlin")?.toISOString()).toBe("2024-01-19T14:30:15.000Z");
    expect(parseTimestamp("07/19/2024 13:15:42 EDT", "MM/DD/YYYY", "Asia/Tokyo")?.toISOString()).toBe("2024-07-19T17:15:42.000Z");
    // A file that writes EST all year is still read as New York time in summer.
    expect(parseTimestamp("07/19/2024 13:15:42 EST", "MM/DD/YYYY", "Asia/Tokyo")?.toISOString()).toBe("2024-07-19T17:15:42.000Z");
    expect(parseTimestamp("2024-01-19 08:30:15 CT", "iso", "America/New_York")?.toISOString()).toBe("2024-01-19T14:30:15.000Z");
    expect(parseTimestamp("2024-01-19 14:30:15 UTC", "iso", "America/New_York")?.toISOString()).toBe("2024-01-19T14:30:15.000Z");
    // AM/PM is not a zone; an unknown word still fails.
    expect(parseTimestamp("1/19/2024 2:05:33 PM", "MM/DD/YYYY", ZONE)?.toISOString()).toBe("2024-01-19T19:05:33.000Z");
    expect(parseTimestamp("01/19/2024 09:30:15 XYZ", "MM/DD/YYYY", ZONE)).toBeNull();
  });

  it("reads IBKR's comma between an ISO date and the time, and its compact YYYYMMDD;HHmmss", () => {
    expect(parseTimestamp("2024-01-19, 09:30:15", "iso", ZONE)?.toISOString()).toBe("2024-01-19T14:30:15.000Z");
    expect(parseTimestamp("20240119;093015", "YYYYMMDD", ZONE)?.toISOString()).toBe("2024-01-19T14:30:15.000Z");
    expect(parseTimestamp("2024-01-19,, 09:30:15", "iso", ZONE)).toBeNull();
  });

  it("reads Schwab's \"posted as of\" dates as the trade's day, and DEGIRO's DD-MM-YYYY", () => {
    expect(parseTimestamp("01/18/2024 as of 01/17/2024", "MM/DD/YYYY", ZONE)?.toISOString()).toBe("2024-01-17T05:00:00.000Z");
    expect(parseTimestamp("19-01-2024 15:30", "DD/MM/YYYY", "Europe/Amsterdam")?.toISOString()).toBe("2024-01-19T14:30:00.000Z");
    expect(parseTimestamp("01/18/2024 as of", "MM/DD/YYYY", ZONE)).toBeNull();
  });
});

describe("broker symbols", () => {
  it.each([
    ["ES 03-24", "ESH24"],
    ["MNQ 12-25", "MNQZ25"],
    ["ES 13-24", "ES 13-24"], // no such month: left for the instrument check to refuse
    ["-SPY240216C480", "SPY   240216C00480000"],
    [" -QQQ240126P412.5", "QQQ   240126P00412500"],
    ["SPY 240216C480", "SPY   240216C00480000"],
    [".AAPL240119C190", "AAPL  240119C00190000"],
    ["BRKB240119P0.5", "BRKB  240119P00000500"],
    // Already readable: left alone.
    ["AAPL  240119C00190000", "AAPL  240119C00190000"],
    ["AAPL240119C00190000", "AAPL240119C00190000"],
    ["/ESH24", "/ESH24"],
    ["brk.b", "BRK.B"],
    // Contract descriptions: IBKR statements, Robinhood and E*TRADE descriptions.
    ["AAPL 16FEB24 195 C", "AAPL  240216C00195000"],
    ["SPY 2/16/2024 Call $480.00", "SPY   240216C00480000"],
    ["PUT  QQQ    01/26/24   412.500", "QQQ   240126P00412500"],
    ["CALL SPY 02/16/24 480.000", "SPY   240216C00480000"],
    // Schwab's transaction history.
    ["SPY 02/16/2024 480.00 C", "SPY   240216C00480000"],
    ["QQQ 01/26/2024 412.50 P", "QQQ   240126P00412500"],
    ["Apple\nCUSIP: 037833100", "APPLE\nCUSIP: 037833100"],
  ])("%j → %j", (raw, expected) => {
    expect(normalizeBrokerSymbol(raw)).toBe(expected);
  });
});

describe("side from the quantity's sign", () => {
  it("makes negative quantities sells and positive ones buys when there is no side column", () => {
    const csv = "When,Sym,Qty,Px\n2024-01-19T09:30:00Z,AAPL,100,191.5\n2024-01-19T10:00:00Z,AAPL,-100,192\n";
    const { fills, errors } = read(csv, { executedAt: "When", symbol: "Sym", quantity: "Qty", price: "Px" }, { sideFromQuantitySign: true });
    expect(errors).toEqual([]);
    expect(fills.map((f) => [f.side, f.quantity])).toEqual([["buy", "100"], ["sell", "100"]]);
  });

  it("is required when the mapping has no side", () => {
    const csv = "When,Sym,Qty,Px\n2024-01-19T09:30:00Z,AAPL,100,191.5\n";
    expect(validationFields(() => read(csv, { executedAt: "When", symbol: "Sym", quantity: "Qty", price: "Px" }))).toEqual([
      "column not found: side (or options.sideFromQuantitySign)",
    ]);
  });
});

describe("header search and sections", () => {
  const statement = [
    "Account Statement for 123",
    "",
    "Cash Balance",
    "DATE,AMOUNT",
    "1/19/24,100",
    "",
    "Trades",
    "When,Sym,Side,Qty,Px",
    "2024-01-19T09:30:00Z,AAPL,BUY,1,10",
    "2024-01-19T09:31:00Z,AAPL,SELL,1,11",
    "",
    "Equities",
    "Symbol,Qty",
    "AAPL,0",
  ].join("\n");

  it("takes the first row holding every named cell as the header and numbers rows from it", () => {
    const options = { headerRowContains: ["sym", "WHEN"], endAtBlankRow: true };
    const shape = readCsv(statement, options, MAX_ROWS);
    expect(shape.header).toEqual(["When", "Sym", "Side", "Qty", "Px"]);
    expect(shape.headerRow).toBe(6); // blank lines are not counted
    const { fills, errors } = normalizeCsv(statement, BASIC, options, ACCOUNT, MAX_ROWS);
    expect(errors).toEqual([]);
    expect(fills.map((f) => [f.row, f.side])).toEqual([[7, "buy"], [8, "sell"]]);
  });

  it("without endAtBlankRow reads on into the next section (whose rows then fail)", () => {
    const { fills, errors } = read(statement, BASIC, { headerRowContains: ["When", "Sym"] });
    expect(fills).toHaveLength(2);
    expect(new Set(errors.map((e) => e.row))).toEqual(new Set([9, 10, 11]));
  });

  it("refuses a file without such a header row", () => {
    expect(validationFields(() => readCsv(statement, { headerRowContains: ["Exec Time"] }, MAX_ROWS))).toEqual(["has no matching header row"]);
  });
});

describe("row filters", () => {
  const csv = [
    "When,Sym,Side,Qty,Px,Kind,Note",
    "2024-01-19T09:30:00Z,AAPL,BUY,1,10,Trade,",
    "2024-01-19T09:31:00Z,AAPL,SELL,1,11,trade,PUT AAPL",
    "2024-01-19T09:32:00Z,,,,,Deposit,",
    "2024-01-19T09:33:00Z,MSFT,BUY,1,12,Trade Correction,",
  ].join("\n");

  it("keeps rows whose cell matches a keep value and none of the drop values; the rest are skipped, not errors", () => {
    const { fills, errors, skipped } = read(csv, BASIC, {
      rowFilters: [{ column: "Kind", keep: ["TRADE"] }, { column: "Note", drop: ["PUT *"], reason: "an option" }],
    });
    expect(errors).toEqual([]);
    expect(fills.map((f) => f.row)).toEqual([2]);
    // Each skipped row is listed with the filter's reason, or one naming the cell.
    expect(skipped).toEqual([
      { row: 3, reason: "an option" },
      { row: 4, reason: 'Kind "Deposit" is not a trade this format reads' },
      { row: 5, reason: 'Kind "Trade Correction" is not a trade this format reads' },
    ]);
  });

  it("matches keep values ending in * as prefixes", () => {
    const { fills, skipped } = read(csv, BASIC, { rowFilters: [{ column: "Kind", keep: ["Trade*"] }] });
    expect(fills.map((f) => f.row)).toEqual([2, 3, 5]);
    expect(skipped).toEqual([{ row: 4, reason: 'Kind "Deposit" is not a trade this format reads' }]);
  });

  it("names a filter column the file lacks", () => {
    expect(validationFields(() => read(csv, BASIC, { rowFilters: [{ column: "Status", keep: ["Filled"] }] }))).toEqual([
      'column not found: rowFilters → "Status"',
    ]);
  });
});

describe("time-only files", () => {
  const csv = "Time,Sym,Side,Qty,Px\n9:30:15 AM,AAPL,B,100,191.5\n15:48:50,AAPL,S,100,192\n";
  const mapping: ImportMapping = { time: "Time", symbol: "Sym", side: "Side", quantity: "Qty", price: "Px" };

  it("put options.tradeDate in front of each time, in the file's zone", () => {
    const { fills, errors } = read(csv, mapping, { tradeDate: "2024-07-19", dateFormat: "DD/MM/YYYY" });
    expect(errors).toEqual([]);
    expect(fills.map((f) => f.executed_at)).toEqual(["2024-07-19T13:30:15.000Z", "2024-07-19T19:48:50.000Z"]);
  });

  it("report a bad time against the time column", () => {
    const { errors } = read("Time,Sym,Side,Qty,Px\nlunch,AAPL,B,1,1\n", mapping, { tradeDate: "2024-07-19" });
    expect(errors).toEqual([{ row: 2, column: "Time", message: '"2024-07-19 lunch" is not a time' }]);
  });

  it("accept only an ISO date as tradeDate", () => {
    expect(ImportOptionsSchema.safeParse({ tradeDate: "07/19/2024" }).success).toBe(false);
  });
});

describe("prices", () => {
  const csv = "When,Sym,Side,Qty,Px\n2024-01-19T09:30:00Z,SPY   240216P00470000,BUY,2,-310.00\n2024-01-19T09:31:00Z,AAPL,SELL,100,192.25\n2024-01-19T09:32:00Z,MESH4,SELL,1,24006.25\n";

  it("refuse a negative price unless options.signedPrice", () => {
    expect(read(csv, BASIC).errors).toEqual([{ row: 2, column: "Px", message: '"-310.00" is not a price' }]);
  });

  it("divide a price that includes the multiplier by the instrument's multiplier", () => {
    const { fills, errors } = read(csv, BASIC, { signedPrice: true, priceIncludesMultiplier: true });
    expect(errors).toEqual([]);
    expect(fills.map((f) => [f.symbol, f.price])).toEqual([
      ["SPY   240216P00470000", "3.10"],
      ["AAPL", "192.25"],
      ["MESH24", "4801.25"],
    ]);
  });
});

describe("a currency column", () => {
  const csv = "When,Sym,Side,Qty,Px,Ccy\n2024-01-19T09:30:00Z,AAPL,BUY,1,190,USD\n2024-01-19T09:31:00Z,SAP,BUY,1,160,eur\n2024-01-19T09:32:00Z,MSFT,BUY,1,400,\n2024-01-19T09:33:00Z,SHOP,BUY,1,90,cad\n";
  const mapping = { ...BASIC, currency: "Ccy" };

  it("makes a row in another currency than the account's an error of that row; an empty cell is the account's", () => {
    const usd = read(csv, mapping);
    expect(usd.fills.map((f) => f.symbol)).toEqual(["AAPL", "MSFT"]);
    expect(usd.errors).toEqual([
      { row: 3, column: "Ccy", message: '"EUR" is not this account\'s currency (USD): the journal does not convert currencies, so import this row into an account in EUR' },
      { row: 5, column: "Ccy", message: '"CAD" is not this account\'s currency (USD): the journal does not convert currencies, so import this row into an account in CAD' },
    ]);
    const eur = read(csv, mapping, {}, ZONE, "EUR");
    expect(eur.fills.map((f) => f.symbol)).toEqual(["SAP", "MSFT"]);
    // Without the column mapped, nothing is checked (the file says nothing about currencies).
    expect(read(csv, BASIC).errors).toEqual([]);
  });

  it("can be a column without a name, by its number (DEGIRO writes each amount's currency in one)", () => {
    const degiro = PRESETS.find((p) => p.id === "degiro")!;
    const usdRow = "19-01-2024,16:01,APPLE INC. - COMMON STOCK,US0378331005,NDQ,XNAS,10,191.50,USD,-1915.00,USD,-1757.02,EUR,1.0899,-1.00,EUR,-1758.02,EUR,\n";
    const file = `${fixture("degiro")}${usdRow}`;
    const result = normalizeCsv(file, degiro.mapping, degiro.options, { timezone: ZONE, currency: "EUR" }, MAX_ROWS);
    expect(result.fills).toHaveLength(3);
    expect(result.errors).toEqual([
      { row: 5, column: "9", message: '"USD" is not this account\'s currency (EUR): the journal does not convert currencies, so import this row into an account in USD' },
    ]);
    // A number past the last column is a column the file lacks.
    expect(() => normalizeCsv(file, { ...degiro.mapping, currency: "40" }, degiro.options, { timezone: ZONE, currency: "EUR" }, MAX_ROWS)).toThrow(/currency → "40"/);
  });
});

describe("fees", () => {
  const mapping: ImportMapping = { ...BASIC, fees: "Comm", extraFees: ["Fee", "Rebate"] };
  const csv = "When,Sym,Side,Qty,Px,Comm,Fee,Rebate\n2024-01-19T09:30:00Z,AAPL,BUY,1,10,1.00,--,-0.20\n2024-01-19T09:31:00Z,AAPL,SELL,1,11,0.05,0.01,-0.20\n";

  it("count every cell as a cost by default, and a cell of dashes as none", () => {
    const { fills, errors } = read(csv, mapping);
    expect(errors).toEqual([]);
    expect(fills.map((f) => f.fees)).toEqual(["1.2000000000", "0.2600000000"]);
  });

  it("with options.feeRebates, subtract negative cells; a net rebate is no fee", () => {
    const { fills } = read(csv, mapping, { feeRebates: true });
    expect(fills.map((f) => f.fees)).toEqual(["0.8000000000", "0.0000000000"]);
  });
});

describe("futures years", () => {
  it("read a 1-digit year near the fill's date, not the import's", () => {
    const csv = "When,Sym,Side,Qty,Px\n2024-06-03T14:00:00Z,ESZ4,BUY,1,5300\n2034-06-05T14:00:00Z,ESZ4,BUY,1,9300\n2019-06-03T14:00:00Z,ESZ9,BUY,1,2800\n";
    const { fills, errors } = read(csv, BASIC);
    expect(errors).toEqual([]);
    expect(fills.map((f) => f.symbol)).toEqual(["ESZ24", "ESZ34", "ESZ19"]);
  });
});
