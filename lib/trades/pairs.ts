// The quote currency of a crypto or currency pair written as a symbol (docs/currencies.md, "Crypto pairs"): a
// fill of ETH/BTC is priced in BTC, so its amounts are BTC and it belongs in an account in BTC, whose figures
// reach the base through BTC's rate. The forms brokers write:
// - "ETH/BTC", "ETH-BTC" (Coinbase products, most exchanges' display names);
// - Kraken's pair keys ("XXBTZUSD", "XETHXXBT": X + asset + Z + fiat, or X + crypto) and altnames ("XBTUSD",
//   "ETHXBT"), as its AssetPairs endpoint lists them; Kraken's XBT is BTC.
// Only 3-letter quotes count, as an account's currency is a 3-letter code; a stablecoin quote (USDT, USDC) is
// not one, and such a symbol is left as it is.

const FIAT = "USD|EUR|GBP|CAD|JPY|CHF|AUD";
const CRYPTO = "XBT|BTC|ETH";
const SEPARATED = new RegExp(`^[A-Z0-9]{2,10}[/-](${FIAT}|${CRYPTO})$`);
const KRAKEN_KEY = new RegExp(`^X[A-Z0-9]{3,4}(?:Z(${FIAT})|X(XBT|ETH))$`);
const RUN_TOGETHER = new RegExp(`^[A-Z]{3,6}(${FIAT}|${CRYPTO})$`);

/** The pair's quote currency (BTC for Kraken's XBT), or null when the symbol is not a pair. */
export function quoteOfPair(symbol: string): string | null {
  const s = symbol.trim().toUpperCase();
  const m = SEPARATED.exec(s) ?? KRAKEN_KEY.exec(s) ?? RUN_TOGETHER.exec(s);
  if (!m) return null;
  const quote = m[1] ?? m[2]!;
  return quote === "XBT" ? "BTC" : quote;
}
