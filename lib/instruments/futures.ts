// The futures contracts the journal knows by their root (DESIGN.md section 10, "Futures contracts"): what a
// point of the quoted price is worth per contract (the multiplier), the smallest price step (tick size) and
// the currency the contract settles in. A futures fill takes its multiplier and currency from here, so no one
// has to type them; a root not listed is an error naming the symbol unless a multiplier comes with the fill,
// never a silent multiplier of 1. GET /api/instruments/futures lists it.
//
// Source: the exchanges' contract specifications as published (CME Group for CME, CBOT, NYMEX and COMEX;
// ICE Futures U.S.; Cboe Futures Exchange for VX and VXM), read in 2026-11; docs/trading.md, "Futures
// contracts". Prices of grains, livestock and softs are quoted in cents, so their multipliers are per cent.

export type FuturesGroup = "equity index" | "interest rate" | "energy" | "metal" | "grain" | "livestock" | "currency" | "crypto" | "volatility" | "soft";

export type FuturesContract = {
  root: string;
  name: string;
  exchange: "CME" | "CBOT" | "NYMEX" | "COMEX" | "ICE US" | "CFE";
  group: FuturesGroup;
  /** Money per point of the quoted price, per contract (decimal string). */
  multiplier: string;
  /** The smallest price step (decimal string). */
  tickSize: string;
  /** ISO 4217: what the contract's P&L is in. */
  currency: string;
};

type Row = [root: string, name: string, exchange: FuturesContract["exchange"], group: FuturesGroup, multiplier: string, tickSize: string, currency?: string];

const ROWS: Row[] = [
  // Equity indexes
  ["ES", "E-mini S&P 500", "CME", "equity index", "50", "0.25"],
  ["MES", "Micro E-mini S&P 500", "CME", "equity index", "5", "0.25"],
  ["NQ", "E-mini Nasdaq-100", "CME", "equity index", "20", "0.25"],
  ["MNQ", "Micro E-mini Nasdaq-100", "CME", "equity index", "2", "0.25"],
  ["RTY", "E-mini Russell 2000", "CME", "equity index", "50", "0.1"],
  ["M2K", "Micro E-mini Russell 2000", "CME", "equity index", "5", "0.1"],
  ["EMD", "E-mini S&P MidCap 400", "CME", "equity index", "100", "0.1"],
  ["NKD", "Nikkei 225 (dollar)", "CME", "equity index", "5", "5"],
  ["NIY", "Nikkei 225 (yen)", "CME", "equity index", "500", "5", "JPY"],
  ["YM", "E-mini Dow ($5)", "CBOT", "equity index", "5", "1"],
  ["MYM", "Micro E-mini Dow", "CBOT", "equity index", "0.5", "1"],
  ["MME", "MSCI Emerging Markets Index", "ICE US", "equity index", "50", "0.1"],
  ["MFS", "MSCI EAFE Index", "ICE US", "equity index", "50", "0.1"],
  // Interest rates (Treasury prices in points of par; ticks are fractions of 1/32)
  ["ZB", "U.S. Treasury Bond", "CBOT", "interest rate", "1000", "0.03125"],
  ["UB", "Ultra U.S. Treasury Bond", "CBOT", "interest rate", "1000", "0.03125"],
  ["TN", "Ultra 10-Year U.S. Treasury Note", "CBOT", "interest rate", "1000", "0.015625"],
  ["ZN", "10-Year U.S. Treasury Note", "CBOT", "interest rate", "1000", "0.015625"],
  ["ZF", "5-Year U.S. Treasury Note", "CBOT", "interest rate", "1000", "0.0078125"],
  ["ZT", "2-Year U.S. Treasury Note", "CBOT", "interest rate", "2000", "0.00390625"],
  ["SR3", "Three-Month SOFR", "CME", "interest rate", "2500", "0.005"],
  // Energy
  ["CL", "Crude Oil (WTI)", "NYMEX", "energy", "1000", "0.01"],
  ["MCL", "Micro WTI Crude Oil", "NYMEX", "energy", "100", "0.01"],
  ["QM", "E-mini Crude Oil", "NYMEX", "energy", "500", "0.025"],
  ["BZ", "Brent Crude Oil Last Day", "NYMEX", "energy", "1000", "0.01"],
  ["NG", "Henry Hub Natural Gas", "NYMEX", "energy", "10000", "0.001"],
  ["QG", "E-mini Natural Gas", "NYMEX", "energy", "2500", "0.005"],
  ["RB", "RBOB Gasoline", "NYMEX", "energy", "42000", "0.0001"],
  ["HO", "NY Harbor ULSD (heating oil)", "NYMEX", "energy", "42000", "0.0001"],
  // Metals
  ["GC", "Gold", "COMEX", "metal", "100", "0.1"],
  ["MGC", "Micro Gold", "COMEX", "metal", "10", "0.1"],
  ["SI", "Silver", "COMEX", "metal", "5000", "0.005"],
  ["SIL", "Micro Silver", "COMEX", "metal", "1000", "0.005"],
  ["HG", "Copper", "COMEX", "metal", "25000", "0.0005"],
  ["MHG", "Micro Copper", "COMEX", "metal", "2500", "0.0005"],
  ["PL", "Platinum", "NYMEX", "metal", "50", "0.1"],
  ["PA", "Palladium", "NYMEX", "metal", "100", "0.5"],
  // Grains (cents per bushel, pound or dollars per ton as noted by the multiplier)
  ["ZC", "Corn", "CBOT", "grain", "50", "0.25"],
  ["MZC", "Micro Corn", "CBOT", "grain", "5", "0.5"],
  ["ZS", "Soybeans", "CBOT", "grain", "50", "0.25"],
  ["MZS", "Micro Soybeans", "CBOT", "grain", "5", "0.5"],
  ["ZW", "Chicago SRW Wheat", "CBOT", "grain", "50", "0.25"],
  ["MZW", "Micro Wheat", "CBOT", "grain", "5", "0.5"],
  ["KE", "KC HRW Wheat", "CBOT", "grain", "50", "0.25"],
  ["ZO", "Oats", "CBOT", "grain", "50", "0.25"],
  ["ZL", "Soybean Oil", "CBOT", "grain", "600", "0.01"],
  ["ZM", "Soybean Meal", "CBOT", "grain", "100", "0.1"],
  ["ZR", "Rough Rice", "CBOT", "grain", "2000", "0.005"],
  // Livestock (cents per pound)
  ["LE", "Live Cattle", "CME", "livestock", "400", "0.025"],
  ["GF", "Feeder Cattle", "CME", "livestock", "500", "0.025"],
  ["HE", "Lean Hogs", "CME", "livestock", "400", "0.025"],
  // Currencies (U.S. dollars per unit of the currency)
  ["6E", "Euro FX", "CME", "currency", "125000", "0.00005"],
  ["M6E", "Micro EUR/USD", "CME", "currency", "12500", "0.0001"],
  ["E7", "E-mini Euro FX", "CME", "currency", "62500", "0.0001"],
  ["6J", "Japanese Yen", "CME", "currency", "12500000", "0.0000005"],
  ["J7", "E-mini Japanese Yen", "CME", "currency", "6250000", "0.000001"],
  ["6B", "British Pound", "CME", "currency", "62500", "0.0001"],
  ["M6B", "Micro GBP/USD", "CME", "currency", "6250", "0.0001"],
  ["6A", "Australian Dollar", "CME", "currency", "100000", "0.00005"],
  ["M6A", "Micro AUD/USD", "CME", "currency", "10000", "0.0001"],
  ["6C", "Canadian Dollar", "CME", "currency", "100000", "0.00005"],
  ["6S", "Swiss Franc", "CME", "currency", "125000", "0.00005"],
  ["6N", "New Zealand Dollar", "CME", "currency", "100000", "0.00005"],
  ["6M", "Mexican Peso", "CME", "currency", "500000", "0.00001"],
  ["DX", "U.S. Dollar Index", "ICE US", "currency", "1000", "0.005"],
  // Crypto
  ["BTC", "Bitcoin", "CME", "crypto", "5", "5"],
  ["MBT", "Micro Bitcoin", "CME", "crypto", "0.1", "5"],
  ["ETH", "Ether", "CME", "crypto", "50", "0.25"],
  ["MET", "Micro Ether", "CME", "crypto", "0.1", "0.5"],
  // Volatility
  ["VX", "Cboe Volatility Index (VIX)", "CFE", "volatility", "1000", "0.05"],
  ["VXM", "Mini Cboe Volatility Index", "CFE", "volatility", "100", "0.05"],
  // Softs (cents per pound; cocoa in dollars per metric ton)
  ["KC", "Coffee \"C\"", "ICE US", "soft", "375", "0.05"],
  ["CT", "Cotton No. 2", "ICE US", "soft", "500", "0.01"],
  ["SB", "Sugar No. 11", "ICE US", "soft", "1120", "0.01"],
  ["CC", "Cocoa", "ICE US", "soft", "10", "1"],
  ["OJ", "FCOJ-A (orange juice)", "ICE US", "soft", "150", "0.05"],
];

/** The contracts by root. */
export const FUTURES: ReadonlyMap<string, FuturesContract> = new Map(
  ROWS.map(([root, name, exchange, group, multiplier, tickSize, currency = "USD"]) => [root, Object.freeze({ root, name, exchange, group, multiplier, tickSize, currency })]),
);

/** Root -> multiplier, for what reads only that. */
export const FUTURES_MULTIPLIERS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries([...FUTURES].map(([root, c]) => [root, c.multiplier])));

/** GET /api/instruments/futures: the table, roots in alphabetical order within each group. */
export function listFutures(): { futures: FuturesContract[] } {
  return { futures: [...FUTURES.values()].sort((a, b) => a.group.localeCompare(b.group) || a.root.localeCompare(b.root)) };
}
