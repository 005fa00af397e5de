// Market data: loading a 10,000-ticker file (fetched from the local stand-in, parsed, swapped in by one
// statement) beside its parts measured alone in the same run (the download + parse with no database, and one
// bare INSERT of the same rows into a plain table); and symbol search p50 through the API beside the bare
// statement on the same database, in turns.
import { sql } from "drizzle-orm";
import { createNodeDb } from "../../lib/db/node.ts";
import { createLogger } from "../../lib/log.ts";
import { searchSymbols } from "../../lib/market/symbols.ts";
import { fetchTickerFile, loadTickers } from "../../lib/market/tickers.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { testConfig } from "../../tests/support/env.ts";
import { startMarketServer } from "../../tests/support/market-server.ts";
import { registerBenchUser, request } from "./http.ts";
import { median, timeInterleaved } from "./startup.ts";

export const LOAD_ROUNDS = 5;
export const SEARCH_ROUNDS = 301;
/** What a trader types: a ticker prefix, an exact ticker, a name word, two name words. */
const QUERIES = ["ZAB", "ZAAAB", "group", "company holdings", "Z"];

export async function measureMarket(env: Record<string, string>, databaseUrl: string) {
  const stand = await startMarketServer();
  const handle = await createNodeDb(databaseUrl, { poolSize: 4, transactionPooler: false });
  const config = testConfig({ ...stand.env, REGULATOR_TICKERS_URL: stand.tickersUrl("big.json"), DATABASE_URL: databaseUrl });
  const deps = { db: handle.db, config, fetch, log: createLogger({ silent: true }) };
  try {
    await handle.db.execute(sql`create temporary table bench_symbols (ticker text, name text, exchange text, words text)`);
    const load: number[] = [];
    const fetchParse: number[] = [];
    const insert: number[] = [];
    for (let i = 0; i < LOAD_ROUNDS + 1; i++) {
      let started = performance.now();
      const outcome = await loadTickers(deps, { force: true });
      const loadMs = performance.now() - started;
      if (outcome.status !== "loaded" || outcome.rows !== 10_000) throw new Error(`load: ${JSON.stringify(outcome)}`);
      started = performance.now();
      const tickers = await fetchTickerFile(deps);
      const fetchMs = performance.now() - started;
      const payload = JSON.stringify(tickers.map((t) => ({ ...t, words: ` ${t.name.toLowerCase()}` })));
      started = performance.now();
      await handle.db.execute(sql`insert into bench_symbols select * from jsonb_to_recordset(${payload}::jsonb) as r(ticker text, name text, exchange text, words text)`);
      const insertMs = performance.now() - started;
      await handle.db.execute(sql`truncate bench_symbols`);
      if (i === 0) continue; // warm-up
      load.push(loadMs);
      fetchParse.push(fetchMs);
      insert.push(insertMs);
    }

    const server = await startEntrypoint({ ...env, ...stand.env, REGULATOR_TICKERS_URL: stand.tickersUrl("big.json"), DATABASE_URL: databaseUrl });
    try {
      const { cookie } = await registerBenchUser(server.url, "symbols");
      let a = 0;
      let s = 0;
      const times = await timeInterleaved(SEARCH_ROUNDS, {
        api: async () => {
          const res = await request(`${server.url}/api/symbols?q=${encodeURIComponent(QUERIES[a++ % QUERIES.length]!)}`, { headers: { Cookie: cookie } });
          if (res.status !== 200) throw new Error(`search answered ${res.status}`);
        },
        sql: () => searchSymbols(deps, QUERIES[s++ % QUERIES.length]!),
      });
      return { loadMs: median(load), fetchParseMs: median(fetchParse), insertMs: median(insert), apiSearch: times.api, sqlSearch: times.sql };
    } finally {
      await server.stop();
    }
  } finally {
    await handle.close();
    await stand.close();
  }
}
