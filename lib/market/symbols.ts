// Symbol search over the live generation of the ticker table (lib/market/tickers.ts).
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { searchWords, type Ticker } from "./tickers.ts";

export const MAX_SYMBOL_RESULTS = 20;
/** Name words matched at most; more words only narrow a list of 20 further. */
const MAX_WORDS = 6;

function likePrefix(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
}

/**
 * Ticker prefix or company-name words (each word of the query starts a word of the name), case-insensitive.
 * Order: the exact ticker, then tickers starting with the query (shortest first), then names whose first
 * word starts with the query's first word, then the other name matches; at most 20.
 */
export async function searchSymbols(deps: Pick<Deps, "db">, q: string): Promise<{ symbols: Ticker[] }> {
  const ticker = q.trim().toUpperCase();
  const words = searchWords(q).slice(0, MAX_WORDS);
  // Words are letters and digits only (searchWords), so they need no LIKE escaping; `words` starts with a space.
  const nameMatch: SQL = words.length ? sql.join(words.map((w) => sql`s.words like ${`% ${w}%`}`), sql` and `) : sql`false`;
  const firstWord = words.length ? sql`s.words like ${` ${words[0]}%`}` : sql`false`;
  const prefix = likePrefix(ticker);
  const rows = rowsOf<Ticker>(
    await deps.db.execute(sql`
      select s.ticker, s.name, s.exchange
      from symbols s join symbol_loads l on l.id = 1 and s.generation = l.generation
      where s.ticker like ${prefix} or (${nameMatch})
      order by case when s.ticker = ${ticker} then 0 when s.ticker like ${prefix} then 1 when ${firstWord} then 2 else 3 end,
        length(s.ticker), s.ticker
      limit ${MAX_SYMBOL_RESULTS}`),
  );
  return { symbols: rows.map((r) => ({ ticker: r.ticker, name: r.name, exchange: r.exchange })) };
}
