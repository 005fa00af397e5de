// `npm run bench` (or `npm run bench -- ledger` for one section): every benchmark of the project, printed as figures and as ratios against a baseline
// measured in the same run. Needs the local Postgres (127.0.0.1:5432) for the server benchmarks.
import { migrateUrl } from "../../lib/db/migrate.ts";
import { readProcessEnv } from "../../lib/config/index.ts";
import { createDatabase, dropDatabase } from "../../tests/support/database.ts";
import { baseTestEnv } from "../../tests/support/env.ts";
import { measureEdge, EDGE_TRADES } from "./edge.ts";
import { measureBackdated, measureLedger, BACKDATED_ROWS, LEDGER_ROWS, LEDGER_WARMUP_ROUNDS } from "./ledger.ts";
import { IMPORT_ROUNDS, measureImports, measureRaisedCapImport, measureOutsideImport, OUTSIDE_ROUNDS, RAISED_ROUNDS, SHORT_ROWS } from "./imports.ts";
import { measureLogin } from "./login.ts";
import { measureLeaks, PREVIEWS, READS } from "./leaks.ts";
import { ISSUE_37_ROUNDS, measureStats, STATS_TRADES } from "./stats.ts";
import { measureStartup } from "./startup.ts";
import { testConfig } from "../../tests/support/env.ts";
import { measureWorkerBundles, WORKER_GZIP_LIMIT_BYTES } from "./worker-bundles.ts";
import { measureKeys, ROTATED_KEYS } from "./keys.ts";
import { CONCURRENT_HOLDS, measureBilling, WEBHOOK_ROUNDS } from "./billing.ts";
import { measureAdvisor, OPEN_STREAMS, STAND_IN_DELAY_MS, TTFB_ROUNDS } from "./advisor.ts";
import { LOAD_ROUNDS, measureMarket, SEARCH_ROUNDS } from "./market.ts";
import { CHART_TRADES, measureCharts } from "./charts.ts";
import { DISCIPLINE_TRADES, measureDiscipline } from "./discipline.ts";
import { CONDORS, LIST_ROUNDS, measureStrategies, SINGLES, STRATEGY_ROUNDS } from "./strategies.ts";
import { measureSync, SYNC_FILLS, SYNC_ROUNDS } from "./sync.ts";
import { EVALUATION_FILLS, measureProp, PROP_ROUNDS, REPLAY_TRADES } from "./prop.ts";
import { measureTax, TAX_TRADES } from "./tax.ts";
import { measureLoad, measureSoak, type FaultFigures, type LevelFigures } from "./load.ts";
import { measureSharing, SHARE_ROUNDS, VIEWS } from "./sharing.ts";
import { DIGEST_USERS, measureDigest } from "./digest.ts";
import { MC_PATHS, MC_TRADES, measureMonteCarloNode, measureMonteCarloWorkerd, measureWhatIf, WHAT_IF_TRADES } from "./simulations.ts";

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
let failed = false;

// `npm run bench -- imports` (or any of the group names below) runs only those groups; no argument runs all.
const GROUPS = ["startup", "login", "ledger", "stats", "edge", "charts", "discipline", "strategies", "prop", "simulations", "tax", "sharing", "digest", "sync", "imports", "leaks", "keys", "billing", "advisor", "market", "bundles", "load", "soak"] as const;
/** Run only when named: the soak holds a load for 30 minutes. */
const ON_REQUEST = new Set(["soak"]);
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !(GROUPS as readonly string[]).includes(w));
if (unknown.length) {
  console.error(`Unknown benchmark group(s): ${unknown.join(", ")}. Known: ${GROUPS.join(", ")}.`);
  process.exit(2);
}
const runs = (group: (typeof GROUPS)[number]) => (wanted.length === 0 && !ON_REQUEST.has(group)) || wanted.includes(group);

/**
 * Each group runs on a fresh, migrated database of its own: what one group leaves behind (a million deleted
 * ledger rows, never vacuumed where autovacuum is off) must not weigh on the next one's figures.
 */
async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const db = await createDatabase("journal_bench");
  try {
    await migrateUrl(db.url, { skipPost: false });
    return await fn(db.url);
  } finally {
    await dropDatabase(db.name);
  }
}

const { PATH } = await readProcessEnv({ dotenvPath: false });
const env = { ...baseTestEnv(), PATH: PATH ?? "", NODE_ENV: "production" };
const f = (ms: number) => `${ms.toFixed(2)} ms`;

if (runs("startup")) {
  console.log("== Node entrypoint: time to first 200 from /api/health (median of 5) ==");
  const pg = await withDatabase((url) => measureStartup({ ...env, DATABASE_URL: url }));
  console.log(`postgres  entry ${pg.entryMs.toFixed(0)} ms | bare node http ${pg.baselineMs.toFixed(0)} ms | ratio ${(pg.entryMs / pg.baselineMs).toFixed(2)}x (goal <= 5x, < 400 ms)`);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(`  idle RSS a second after ready: entry ${mb(pg.entryRss)} | bare node http ${mb(pg.baselineRss)} | ratio ${(pg.entryRss / pg.baselineRss).toFixed(2)}x`);
  const source = await withDatabase((url) => measureStartup({ ...env, DATABASE_URL: url }, 5, ["--from-source"]));
  console.log(`  from source (--from-source) ${source.entryMs.toFixed(0)} ms | bare ${source.baselineMs.toFixed(0)} ms | ratio ${(source.entryMs / source.baselineMs).toFixed(2)}x`);
  const embedded = await measureStartup({ ...env, DATABASE_URL: "pglite:memory" }, 3);
  console.log(
    `embedded  entry ${embedded.entryMs.toFixed(0)} ms | bare node http ${embedded.baselineMs.toFixed(0)} ms | ratio ${(embedded.entryMs / embedded.baselineMs).toFixed(2)}x (in-memory PGlite, loaded from the migrated template)`,
  );
  console.log(`  idle RSS a second after ready: embedded ${mb(embedded.entryRss)} (the database in the process)`);
}

if (runs("login")) {
  console.log("\n== POST /api/auth/login on Node (median of 20) ==");
  const login = await withDatabase((url) => measureLogin(testConfig({ DATABASE_URL: url, TRUSTED_PROXIES: "127.0.0.1/32,::1/128" })));
  console.log(
    `login ${login.loginMs.toFixed(1)} ms | bare Argon2id verify ${login.verifyMs.toFixed(1)} ms (ratio ${(login.loginMs / login.verifyMs).toFixed(2)}x) | bcrypt-10 compare ${login.bcryptMs.toFixed(1)} ms (Argon2id verify ${(login.verifyMs / login.bcryptMs).toFixed(2)}x of it; goal <= 1.2x) | unknown email ${login.unknownMs.toFixed(1)} ms (${(login.unknownMs / login.loginMs).toFixed(2)}x of a real login) | GET /api/health ${login.healthMs.toFixed(1)} ms`,
  );
  console.log(
    `GET /api/accounts (median of 400, interleaved): by access token ${login.tokenReadMs.toFixed(2)} ms | by session cookie ${login.cookieReadMs.toFixed(2)} ms | ratio ${(login.tokenReadMs / login.cookieReadMs).toFixed(2)}x (goal <= 1.1x)`,
  );
}

if (runs("leaks")) {
  console.log(`\n== Leak watch: the Node entrypoint's RSS after a warm-up, ${READS.toLocaleString("en-US")} reads and ${PREVIEWS} previews of 10,000 rows ==`);
  const leaks = await withDatabase((url) => measureLeaks(env, url));
  const grew = (mb: number) => `${mb >= 0 ? "+" : ""}${mb.toFixed(1)} MB`;
  console.log(
    `after warm-up ${leaks.baseline.toFixed(0)} MB | reads: first half ${grew(leaks.halfReads - leaks.baseline)}, second half ${grew(leaks.afterReads - leaks.halfReads)} (${(leaks.afterReads / leaks.baseline).toFixed(2)}x) | ` +
      `previews: first half ${grew(leaks.halfPreviews - leaks.afterReads)}, second half ${grew(leaks.afterPreviews - leaks.halfPreviews)} (${(leaks.afterPreviews / leaks.baseline).toFixed(2)}x)`,
  );
}

if (runs("ledger")) {
  console.log(`\n== Ledger of ${LEDGER_ROWS.toLocaleString("en")} entries in one account, pageSize 50 (median of 301, taken in turns in random order) ==`);
  const { seedMs, started, settled: ledger } = await withDatabase((url) => measureLedger(env, url));
  console.log(`seeded in ${(seedMs / 1000).toFixed(1)} s`);
  console.log(`-- settled: after ${LEDGER_WARMUP_ROUNDS.toLocaleString("en")} untimed rounds, as a running server answers (the goals are judged here)`);
  console.log(`API  page 1 ${f(ledger.apiFirst)} | page 10,000 ${f(ledger.apiDeep)} | deep/shallow ${(ledger.apiDeep / ledger.apiFirst).toFixed(2)} (goal <= 1.5)`);
  console.log(
    `SQL  page 1 ${f(ledger.sqlFirst)} | page 10,000 ${f(ledger.sqlDeep)} | deep/shallow ${(ledger.sqlDeep / ledger.sqlFirst).toFixed(2)} (prepared, as the API runs it; unprepared page 1 ${f(ledger.sqlFirstUnprepared)})`,
  );
  console.log(
    `floors: bare node:http ${f(ledger.bareHttp)} | GET /api/config/public ${f(ledger.httpFloor)} (app, no DB) | GET /api/auth/me ${f(ledger.sessionOnly)} (app + session check)`,
  );
  console.log(`API/SQL page 1 ${(ledger.apiFirst / ledger.sqlFirst).toFixed(2)} | page 10,000 ${(ledger.apiDeep / ledger.sqlDeep).toFixed(2)} (goal <= 2)`);
  console.log(
    `API - SQL page 1 ${f(ledger.apiFirst - ledger.sqlFirst)} | bare HTTP floor / SQL ${(ledger.bareHttp / ledger.sqlFirst).toFixed(2)} (API/SQL <= 2 needs API - SQL <= SQL)`,
  );
  console.log(
    `bare node:http + pg serving the same statement: page 1 ${f(ledger.floorFirst)} | page 10,000 ${f(ledger.floorDeep)} | /SQL ${(ledger.floorFirst / ledger.sqlFirst).toFixed(2)} / ${(ledger.floorDeep / ledger.sqlDeep).toFixed(2)} (no framework, session or validation; the API spends ${f(ledger.apiFirst - ledger.floorFirst)} more)`,
  );
  console.log("-- just started: the first 301 rounds after start, while V8 still compiles the request path");
  console.log(
    `API  page 1 ${f(started.apiFirst)} | page 10,000 ${f(started.apiDeep)} | SQL page 1 ${f(started.sqlFirst)} | API/SQL ${(started.apiFirst / started.sqlFirst).toFixed(2)} / ${(started.apiDeep / started.sqlDeep).toFixed(2)} | bare node:http + pg /SQL ${(started.floorFirst / started.sqlFirst).toFixed(2)}`,
  );
  console.log(`\n== A backdated entry at ${BACKDATED_ROWS.toLocaleString("en")} entries (133 a trading day), through the API (median of 201, in turns) ==`);
  const back = await withDatabase((url) => measureBackdated(env, url));
  console.log(`seeded in ${(back.seedMs / 1000).toFixed(1)} s; ${back.entries.toLocaleString("en")} entries`);
  console.log(
    `POST appended ${f(back.append)} | POST backdated (~99% of the ledger after it) ${f(back.backdated)} | backdated/appended ${(back.backdated / back.append).toFixed(2)} (goal <= 3, and <= 20 ms) | page 1 after each ${f(back.page)} | balances exact: ${back.exact}`,
  );
}

if (runs("stats")) {
  console.log(`\n== Stats over ${STATS_TRADES.toLocaleString("en")} closed trades (median of 11) ==`);
  const stats = await withDatabase((url) => measureStats(testConfig({ DATABASE_URL: url }), url));
  console.log(`summary  API ${f(stats.apiSummary)} | SQL ${f(stats.sqlSummary)} | API/SQL ${(stats.apiSummary / stats.sqlSummary).toFixed(2)} (goal <= 2)`);
  console.log(`calendar API ${f(stats.apiCalendar)} | SQL ${f(stats.sqlCalendar)} | API/SQL ${(stats.apiCalendar / stats.sqlCalendar).toFixed(2)} (goal <= 2)`);
  console.log(
    `from the journal itself (lib/stats/recompute.ts): summary ${f(stats.sqlSummaryJournal)} (maintained ${(stats.sqlSummaryJournal / stats.sqlSummary).toFixed(1)}x faster) | calendar ${f(stats.sqlCalendarJournal)} (${(stats.sqlCalendarJournal / stats.sqlCalendar).toFixed(1)}x)`,
  );
  console.log(
    `summary from the journal with R ${f(stats.sqlSummaryJournal)} | without R ${f(stats.sqlSummaryJournalWithoutR)} | ratio ${(stats.sqlSummaryJournal / stats.sqlSummaryJournalWithoutR).toFixed(2)} (goal <= 1.2)`,
  );
  const vsAccount = (ms: number) => `${f(ms)} (${(ms / stats.apiAccount).toFixed(1)}x)`;
  console.log(
    `issue 37 (goal: each <= 30 ms and <= 3x GET /api/accounts/:id ${f(stats.apiAccount)}; median of ${ISSUE_37_ROUNDS}, in turns), read again (kept by the rows' version): summary ${vsAccount(stats.apiIssueSummary)} | a month's calendar ${vsAccount(stats.apiMonthCalendar)} | equity curve ${vsAccount(stats.apiEquity)} | breakdown by symbol ${vsAccount(stats.apiBreakdown)}`,
  );
  const vsAccount2 = (ms: number) => `${f(ms)} (${(ms / stats.computedAccount).toFixed(1)}x)`;
  console.log(
    `  the same computed, the rows' version raised before each as any change raises it (GET /api/accounts/:id ${f(stats.computedAccount)}): summary ${vsAccount2(stats.computedSummary)} | a month's calendar ${vsAccount2(stats.computedMonthCalendar)} | equity curve ${vsAccount2(stats.computedEquity)} | breakdown by symbol ${vsAccount2(stats.computedBreakdown)}`,
  );
  const ratio = ([base, one]: [number, number]) => `${f(base)} vs ${f(one)} (${(base / one).toFixed(2)}x)`;
  console.log(
    `issue 55, in the base currency over ${STATS_TRADES.toLocaleString("en")} trades in USD, EUR and GBP against one currency over as many (goal: each <= 1.5x): ` +
      Object.entries(stats.base.reads)
        .map(([name, b]) => `${name} computed ${ratio(b.computed)}, kept ${ratio(b.kept)}`)
        .join(" | ") +
      ` | the first summary after the base is set ${f(stats.base.firstRead)} (the days summed; the months built ${(stats.base.monthsBuilt / 1000).toFixed(2)} s after it was asked)`,
  );
  console.log(
    `right after the history arrived: the first summary ${f(stats.firstRead)} (every day noted: from the journal) | the settle job's refresh of all of it ${(stats.settle / 1000).toFixed(2)} s`,
  );
}

if (runs("edge")) {
  console.log(`\n== The statistics and the ledger at the edge: wrangler dev (workerd) over the HTTP driver, ${EDGE_TRADES.toLocaleString("en")} trades and ledger entries (first request, then median of 11) ==`);
  const e = await withDatabase((url) => measureEdge(env, url));
  const fig = (name: keyof typeof e) => `${name} ${e[name].cold.toFixed(0)} ms cold / ${f(e[name].warm)} warm (${(e[name].warm / e.account.warm).toFixed(1)}x the account)`;
  console.log(`${fig("account")}\n${fig("summary")} | ${fig("monthCalendar")}\n${fig("equity")} | ${fig("breakdown")}\n${fig("ledgerPage")} | ${fig("ledgerDeep")}`);
}

if (runs("discipline")) {
  console.log(`\n== Rules and findings over ${DISCIPLINE_TRADES.toLocaleString("en")} trades in a year (eight rules on) ==`);
  const d = await withDatabase((url) => measureDiscipline(testConfig({ DATABASE_URL: url }), url));
  console.log(`compliance over the year (API, median of 7) ${f(d.complianceYear)} (goal < 1 s) | behaviour findings over the year ${f(d.findingsYear)} (goal < 1 s)`);
  console.log(`a month's compliance report: API ${f(d.apiMonth)} | SQL ${f(d.sqlMonth)} | API/SQL ${(d.apiMonth / d.sqlMonth).toFixed(2)} (goal <= 1.5)`);
}

if (runs("charts")) {
  console.log("\n== Trade charts (the Node server, the bar provider's stand-in) ==");
  const charts = await withDatabase((url) => measureCharts(testConfig({ DATABASE_URL: url }), url));
  console.log(
    `chart data, ${charts.chart.bars} cached 1-minute bars over 2 days (median of 201, taken in turns): API ${f(charts.chart.apiMs)} | SQL reading the same bars ${f(charts.chart.sqlMs)} | API/SQL ${(charts.chart.apiMs / charts.chart.sqlMs).toFixed(2)} (goal <= 1.5)`,
  );
  console.log(
    `  any signed-in request's floor (GET /api/bars/key) ${f(charts.chart.floorMs)} | the chart beyond it ${f(charts.chart.apiMs - charts.chart.floorMs)} (${((charts.chart.apiMs - charts.chart.floorMs) / charts.chart.sqlMs).toFixed(2)}x the SQL)`,
  );
  console.log(
    `${charts.trades.toLocaleString("en")} trades charted (of ${CHART_TRADES.toLocaleString("en")} planned): ${charts.requests} provider requests for ${charts.symbolDays} symbol-days | ${(charts.requests / charts.symbolDays).toFixed(2)} per symbol-day (goal 1)`,
  );
}

if (runs("imports")) {
  console.log("\n== CSV import (the Node entrypoint in its own process) ==");
  const imports = await withDatabase((url) => measureImports(env, url));
  console.log(
    `10,000 rows (median of ${IMPORT_ROUNDS}, after a warm-up import): preview + commit ${imports.importMs.toFixed(0)} ms (preview ${imports.previewMs.toFixed(0)} + commit ${imports.commitMs.toFixed(0)}; ${imports.fillsCreated} fills) | floor (papaparse + one bulk insert) ${imports.floorMs.toFixed(0)} ms | ratio ${(imports.importMs / imports.floorMs).toFixed(2)} (goal <= 3)`,
  );
  console.log(
    `  undo of a 10,000-fill import right after it (median of 3): ${imports.undoMs.toFixed(0)} ms (${(imports.undoMs / imports.commitMs).toFixed(2)}x its commit) | the same file as futures: commit ${imports.futuresCommitMs.toFixed(0)} ms (${(imports.futuresCommitMs / imports.commitMs).toFixed(2)}x the stocks' commit)`,
  );
  if (imports.copyMs !== null) {
    console.log(
      `  beside a bare COPY of the same file into a plain table (psql \\copy, server time, median of 5): ${imports.copyMs.toFixed(0)} ms | ratio ${(imports.importMs / imports.copyMs).toFixed(1)}`,
    );
  }
  console.log(
    `${(imports.bigBytes / 1024 / 1024).toFixed(1)} MB file (10,000 rows of ~1 KB): peak RSS growth ${(imports.peakGrowth / 1024 / 1024).toFixed(0)} MB over ${(imports.rssBefore / 1024 / 1024).toFixed(0)} MB at rest (goal <= 150 MB)`,
  );
  console.log(
    `${(imports.shortBytes / 1024 / 1024).toFixed(1)} MB of short rows (${SHORT_ROWS.toLocaleString("en-US")}), over the default row cap: refused (413) with a peak RSS growth of ${(imports.refusedGrowth / 1024 / 1024).toFixed(0)} MB`,
  );
  const raised = await withDatabase((url) => measureRaisedCapImport(env, url));
  console.log(
    `the same file with CSV_IMPORT_MAX_ROWS and CSV_IMPORT_MAX_STAGED_BYTES raised (median of ${RAISED_ROUNDS}): ${raised.fills.toLocaleString("en-US")} fills in ${(raised.ms / 1000).toFixed(1)} s, peak RSS growth ${(raised.peakGrowth / 1024 / 1024).toFixed(0)} MB (${(raised.min / 1024 / 1024).toFixed(0)}-${(raised.max / 1024 / 1024).toFixed(0)}) over ${(raised.rssBefore / 1024 / 1024).toFixed(0)} MB at rest (goal <= 150 MB)`,
  );
  const outside = await withDatabase((url) => measureOutsideImport(env, url));
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `measured from outside (issue 40): ${outside.bytes.toLocaleString("en-US")} bytes, ${outside.fills.toLocaleString("en-US")} fills, a fresh process each (median of ${OUTSIDE_ROUNDS}): peak VmRSS growth ${mb(outside.growth)} (${mb(outside.min)}-${mb(outside.max)}) over ${mb(outside.rest)} at rest (goal <= 150 MB) | preview ${(outside.previewMs / 1000).toFixed(1)} s, commit ${(outside.commitMs / 1000).toFixed(1)} s, commit/preview ${outside.ratios.map((r) => r.toFixed(2)).join(", ")} (goal <= 2)`,
  );
  const floor = outside.writeFloor;
  const ofPreview = (ms: number) => `${(ms / 1000).toFixed(2)} s = ${(ms / outside.previewMs).toFixed(2)}x`;
  console.log(
    `  the commit's rows alone (fills, ledger entries, fill shares, trades) copied into copies of their tables with their indexes, one transaction (median of 3): ${(floor.ms / 1000).toFixed(1)} s, ${(floor.ms / outside.previewMs).toFixed(2)}x the preview`,
  );
  console.log(
    `    of which, against the preview: fills ${ofPreview(floor.perTable.fills)}, their ledger entries ${ofPreview(floor.perTable.ledger_entries)}, trades ${ofPreview(floor.perTable.positions)}, fill shares ${ofPreview(floor.perTable.position_fills)}`,
  );
}

if (runs("strategies")) {
  console.log("\n== Option strategies (Node entrypoint) ==");
  const s = await withDatabase((url) => measureStrategies(env, url));
  console.log(
    `${(CONDORS * 8).toLocaleString("en")} option fills (${CONDORS.toLocaleString("en")} condors opened and closed) committed: with order ids ${f(s.commitWithOrdersMs)} | the same file without them ${f(s.commitWithoutMs)} | ratio ${(s.commitWithOrdersMs / s.commitWithoutMs).toFixed(2)}x (goal <= 1.15x; median of ${STRATEGY_ROUNDS})`,
  );
  console.log(
    `  first read of the strategies (groups and classifies the ${(CONDORS * 4).toLocaleString("en")} trades; ${s.condorsOnFirstPage} iron condors on a page of 200) ${f(s.firstReadMs)} = ${(s.firstReadMs / s.commitWithOrdersMs).toFixed(2)}x the commit`,
  );
  console.log(
    `strategies list page (50) at ${SINGLES.toLocaleString("en")} strategies ${f(s.strategiesPageMs)} | the trades list page (50) of the same account ${f(s.tradesPageMs)} | ratio ${(s.strategiesPageMs / s.tradesPageMs).toFixed(2)}x (goal <= 2x; median of ${LIST_ROUNDS}, in turns; their first read, settling them, ${f(s.singlesSettleMs)})`,
  );
}

if (runs("prop")) {
  console.log("\n== Prop-firm evaluations (Node entrypoint) ==");
  const p = await withDatabase((url) => measureProp(env, url));
  console.log(
    `status after one more fill on an evaluation of ${EVALUATION_FILLS.toLocaleString("en")} fills ${f(p.statusMs)} | GET /api/accounts/:id ${f(p.accountMs)} | ratio ${(p.statusMs / p.accountMs).toFixed(1)}x (goal <= 3x; median of ${PROP_ROUNDS}, in turns)`,
  );
  console.log(`replay of ${REPLAY_TRADES.toLocaleString("en")} trades (${p.replayDays} trading days) under one rule set, the engine alone: ${f(p.replayMs)} (goal < 2 s)`);
}

if (runs("simulations")) {
  console.log("\n== Simulations: the Monte Carlo (Node and workerd) and the what-if (Node entrypoint) ==");
  const node = measureMonteCarloNode();
  const shape = `${MC_PATHS.toLocaleString("en")} paths of ${MC_TRADES.toLocaleString("en")} trades`;
  console.log(
    `Node: ${shape} at the default block (8) ${f(node.defaultBlockMs)}, at block 1 ${f(node.blockOneMs)} | the same trades summed with nothing else ${f(node.baselineMs)} | ratios ${(node.defaultBlockMs / node.baselineMs).toFixed(2)}x, ${(node.blockOneMs / node.baselineMs).toFixed(2)}x (goal < 1 s)`,
  );
  const edge = await measureMonteCarloWorkerd(PATH ?? "");
  console.log(
    `workerd (wrangler dev): ${shape} at the default block ${f(edge.defaultBlockMs)}, at block 1 ${f(edge.blockOneMs)} | an empty request ${f(edge.noopMs)} | ${(edge.defaultBlockMs / node.defaultBlockMs).toFixed(2)}x of Node (goal: within the Workers Standard default of 30,000 ms CPU a request)`,
  );
  const w = await withDatabase((url) => measureWhatIf(env, url));
  console.log(
    `what-if over ${WHAT_IF_TRADES.toLocaleString("en")} trades without revenge, overtrading and Fridays ${f(w.whatIfMs)} | with nothing left out ${f(w.plainMs)} | GET /api/stats/summary ${f(w.summaryMs)} | ratio ${(w.whatIfMs / w.summaryMs).toFixed(1)}x (goal < 1.5 s)`,
  );
}

if (runs("tax")) {
  console.log("\n== Tax lots and wash sales (Node entrypoint) ==");
  const x = await withDatabase((url) => measureTax(env, url));
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `lots of a year of ${TAX_TRADES.toLocaleString("en")} trades across 3 accounts (${x.rows.toLocaleString("en")} rows, ${x.washed.toLocaleString("en")} washed) ${f(x.lotsMs)} | GET /api/accounts/:id ${f(x.accountMs)} (goal < 2 s)`,
  );
  console.log(`  Form 8949 CSV ${(x.csvBytes / 1024 / 1024).toFixed(1)} MB in ${f(x.csvMs)} | the server's peak RSS growth ${mb(x.peakGrowth)} over ${mb(x.rssBefore)} (goal < 150 MB)`);
}

if (runs("sharing")) {
  console.log("\n== Public links (Node entrypoint) ==");
  const x = await withDatabase((url) => measureSharing(env, url));
  console.log(
    `GET /api/public/shares/:token (no session, the trade, fills, notes, images) ${f(x.shareMs)} | GET /api/trades/:id for the owner ${f(x.tradeMs)} | ratio ${(x.shareMs / x.tradeMs).toFixed(2)}x (goal <= 1.5x; medians of ${SHARE_ROUNDS}, in turns)`,
  );
  const perMinute = Math.round((VIEWS / x.burstMs) * 60_000);
  console.log(`  ${VIEWS.toLocaleString("en")} views, 50 at a time: counted ${x.counted.toLocaleString("en")} (goal: exactly ${VIEWS.toLocaleString("en")}) in ${(x.burstMs / 1000).toFixed(2)} s (${perMinute.toLocaleString("en")} a minute; goal >= 1,000)`);
  if (x.counted !== VIEWS) failed = true;
}

if (runs("digest")) {
  console.log("\n== Weekly digests (one job run, in process, over SMTP) ==");
  const x = await withDatabase((url) => measureDigest(env, url));
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `${DIGEST_USERS.toLocaleString("en")} digests due: sent ${x.outcome.sent.toLocaleString("en")} (received ${x.received.toLocaleString("en")}), failed ${x.outcome.failed}, in ${(x.runMs / 1000).toFixed(1)} s (goal < 300 s) | the week's summary alone for each ${(x.summaryMs / 1000).toFixed(1)} s | ratio ${(x.runMs / x.summaryMs).toFixed(1)}x`,
  );
  console.log(`  peak RSS growth ${mb(x.peakGrowth)} over ${mb(x.rssBefore)} (goal < 150 MB) | at most ${x.maxConnections} connections (the pool's ${x.pool}; never one per user)`);
  if (x.outcome.sent !== DIGEST_USERS || x.received !== DIGEST_USERS) failed = true;
}

if (runs("sync")) {
  console.log("\n== Broker sync (Node entrypoint, the Alpaca stand-in) ==");
  const s = await withDatabase((url) => measureSync(env, url));
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `first sync of ${SYNC_FILLS.toLocaleString("en")} fills (${s.pages} pages of 100, each request's keys checked) ${f(s.syncMs)} | an upload of the same fills with the same preset ${f(s.uploadMs)} | ratio ${(s.syncMs / s.uploadMs).toFixed(2)}x (goal <= 1.3x; median of ${SYNC_ROUNDS}, in turns)`,
  );
  console.log(`  the server's peak RSS growth over a sync ${mb(s.peakGrowth)} over ${mb(s.rssBefore)} before it (goal < 150 MB)`);
}

if (runs("keys")) {
  console.log("\n== Stored keys ==");
  const keys = await withDatabase((url) => measureKeys(env, url));
  const rate = (ms: number) => `${Math.round((ROTATED_KEYS / ms) * 1000).toLocaleString("en")} keys/s`;
  console.log(
    `rotation of ${ROTATED_KEYS.toLocaleString("en")} keys ${(keys.rotationMs / 1000).toFixed(2)} s (${rate(keys.rotationMs)}) | the same opens and seals alone ${(keys.cryptoMs / 1000).toFixed(2)} s (${rate(keys.cryptoMs)}) | ratio ${(keys.rotationMs / keys.cryptoMs).toFixed(2)}`,
  );
  console.log(
    `provider-key save ${f(keys.saveMs)} | its probe alone (stand-in answering at once) ${f(keys.probeMs)} | overhead ${f(keys.saveMs - keys.probeMs)} (median of 7, in turns)`,
  );
}

if (runs("billing")) {
  console.log("\n== Billing ==");
  const b = await withDatabase((url) => measureBilling(env, url));
  console.log(
    `webhook (paid session credited, ${WEBHOOK_ROUNDS - 5} events) median ${f(b.webhook.median)} p99 ${f(b.webhook.p99)} | the crediting statement bare median ${f(b.webhookBare.median)} p99 ${f(b.webhookBare.p99)} | ratio ${(b.webhook.median / b.webhookBare.median).toFixed(2)}`,
  );
  console.log(`hold + settle ${f(b.holdSettle)} | the same two statements bare ${f(b.holdSettleBare)} | ratio ${(b.holdSettle / b.holdSettleBare).toFixed(2)} (median of 200)`);
  console.log(
    `${CONCURRENT_HOLDS} concurrent holds on one wallet (pool of 10): ${f(b.concurrentMs)} (${Math.round((CONCURRENT_HOLDS / b.concurrentMs) * 1000)} holds/s) | each waited median ${f(b.holdLatency.median)}, p99 ${f(b.holdLatency.p99)} (the wallet's row lock serialises them)`,
  );
}

if (runs("advisor")) {
  console.log("\n== Advisor turns (Node entrypoint, model provider stand-in) ==");
  const a = await withDatabase((url) => measureAdvisor(env, url));
  console.log(
    `first answer text: through the server ${f(a.serverMs)} | the stand-in asked directly ${f(a.directMs)} (its ${STAND_IN_DELAY_MS} ms delay included) | server overhead p50 ${f(a.overheadP50)} (goal < 30 ms; median of ${TTFB_ROUNDS}, in turns)`,
  );
  console.log(
    `${OPEN_STREAMS} turns streaming at once: RSS ${(a.busyRss / 1024 / 1024).toFixed(0)} MB against ${(a.idleRss / 1024 / 1024).toFixed(0)} MB at rest | ${(a.perStream / 1024).toFixed(0)} KB per open stream (${((a.busyRss / a.idleRss - 1) * 100).toFixed(0)}% over rest)`,
  );
}

if (runs("market")) {
  console.log("\n== Market data ==");
  const m = await withDatabase((url) => measureMarket(env, url));
  console.log(
    `10,000-ticker file loaded ${f(m.loadMs)} | its download + parse alone ${f(m.fetchParseMs)} + one bare insert of the rows ${f(m.insertMs)} = ${f(m.fetchParseMs + m.insertMs)} | ratio ${(m.loadMs / (m.fetchParseMs + m.insertMs)).toFixed(2)} (median of ${LOAD_ROUNDS})`,
  );
  console.log(`symbol search p50 through the API ${f(m.apiSearch)} | the bare statement ${f(m.sqlSearch)} | ratio ${(m.apiSearch / m.sqlSearch).toFixed(2)} (${SEARCH_ROUNDS} rounds, in turns)`);
}

if (runs("bundles")) {
  console.log("\n== Worker bundles: gzip size (wrangler deploy --dry-run, minified) ==");
  const bundles = await measureWorkerBundles();
  console.log(`baseline (bare Hono Worker): ${kb(bundles.baseline)}`);
  for (const [name, bytes] of Object.entries(bundles.workers)) {
    const budget = WORKER_GZIP_LIMIT_BYTES;
    const over = bytes > budget;
    failed ||= over;
    console.log(
      `${name.padEnd(15)} ${kb(bytes).padStart(9)} | ${(bytes / bundles.baseline).toFixed(1)}x baseline | ${((bytes / budget) * 100).toFixed(0)}% of the 250 KB budget${over ? "  OVER BUDGET" : ""}`,
    );
  }
}
if (runs("load")) {
  console.log("\n== Under load: simulated traders on the Node entrypoint, a Postgres cluster of the bench's own (docs/operations.md) ==");
  const load = await measureLoad(env);
  const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)}` : "-");
  const line = (l: LevelFigures) => {
    console.log(
      `${String(l.traders).padStart(5)} traders | ${l.throughput.toFixed(0).padStart(4)} req/s | reads p50/p95/p99 ${ms(l.reads.p50)}/${ms(l.reads.p95)}/${ms(l.reads.p99)} ms | writes ${ms(l.writes.p50)}/${ms(l.writes.p95)}/${ms(l.writes.p99)} ms | ` +
        `statuses ${JSON.stringify(l.statuses)} | pool max ${l.pool.maxTotal} open, ${l.pool.maxWaiting} waiting | RSS ${l.rss.min.toFixed(0)}-${l.rss.max.toFixed(0)} MB | CPU ${(l.cpuBusy * 100).toFixed(0)}% | shed ${l.shed}`,
    );
    for (const r of l.routes) console.log(`        ${r.route.padEnd(13)} ${String(r.count).padStart(6)} | p50 ${ms(r.p50)} p95 ${ms(r.p95)} p99 ${ms(r.p99)} ms | ${JSON.stringify(r.statuses)}`);
  };
  console.log(`set-up of the traders (register, account, token, fills): ${load.setupSeconds.toFixed(0)} s`);
  for (const l of load.byLevel) line(l);
  const knee = load.byLevel.find((l) => l.reads.p99 > 250);
  console.log(`knee (reads p99 past 250 ms): ${knee ? `${knee.traders} traders` : "not reached"}; goal at 300 traders: reads p99 < 250 ms, writes < 500 ms`);
  console.log("-- overload: every trader with 100-300 ms of think time");
  line(load.overload);
  console.log("-- through pgbouncer (transaction mode, 10 server connections)");
  line(load.pooled300);
  const fault = (name: string, f: FaultFigures) =>
    console.log(
      `${name}: ${f.answers503} answered 503 (Retry-After on all: ${f.retryAfter}), other non-2xx ${JSON.stringify(f.other)}, slowest answer around the gap ${f.maxGapMs.toFixed(0)} ms, first 2xx ${f.backMs.toFixed(0)} ms after it was back | ` +
        `writes checked ${f.checked}, unanswered ${f.unanswered}, answers lost after the commit ${f.lostAnswers.length}, problems ${f.problems.length}${f.problems.length ? `: ${f.problems.slice(0, 3).join("; ")}` : ""}`,
    );
  const lost = (f: FaultFigures) => f.lostAnswers.slice(0, 3).forEach((x) => console.log(`        ${x}`));
  const failed0 = (f: FaultFigures) => f.failures.slice(0, 5).forEach((x) => console.log(`        no answer: ${x}`));
  fault("Postgres restarted (down 2 s), 100 traders", load.restart);
  failed0(load.restart);
  lost(load.restart);
  fault("pgbouncer killed and started again (down 2 s), 100 traders", load.poolerKilled);
  failed0(load.poolerKilled);
  lost(load.poolerKilled);
  failed ||= load.restart.problems.length > 0 || load.poolerKilled.problems.length > 0;
}

if (runs("soak")) {
  console.log("\n== Soak: 300 traders for 30 minutes ==");
  const soak = await measureSoak(env);
  const warm = soak.perMinute.slice(3);
  const first = warm[0]!.rssMb;
  const last = warm[warm.length - 1]!.rssMb;
  console.log(`requests ${soak.requests} | statuses ${JSON.stringify(soak.statuses)} | writes checked ${soak.checked}, problems ${soak.problems.length}`);
  console.log(`RSS after warm-up (minute 4) ${first.toFixed(0)} MB, at the end ${last.toFixed(0)} MB: growth ${(((last - first) / first) * 100).toFixed(1)} % (goal < 10 %) | connections max ${Math.max(...soak.perMinute.map((m) => m.connections))}`);
  console.log(`per minute (MB): ${soak.perMinute.map((m) => m.rssMb.toFixed(0)).join(" ")}`);
  console.log(`V8 heap used per minute (MB): ${soak.perMinute.map((m) => m.heapMb.toFixed(0)).join(" ")}`);
  failed ||= soak.problems.length > 0;
}
process.exit(failed ? 1 : 0);
