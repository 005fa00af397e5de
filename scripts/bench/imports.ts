// CSV import benchmarks against the real Node entrypoint in its own process:
// - a 10,000-row file: preview + commit wall time, beside a floor measured in the same run (papaparse
//   parse of the same file + one bulk insert of the same rows into the same table);
// - a 10 MB file: the server's peak RSS growth during preview + commit (VmHWM, reset before the run);
// - issue 40's figure: 10,000,000 bytes of 165,505 short rows into a fresh process with the caps raised, its
//   RSS sampled from another process every 10 ms (measureOutsideImport).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import pg from "pg";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { median } from "./startup.ts";

export const IMPORT_ROUNDS = 5;
/** Rows of the 10 MB file of short rows (generateCsv's rows are ~63 bytes). */
export const SHORT_ROWS = 165_505;
export const RAISED_ROUNDS = 3;

const HEADER = "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID,Notes";

export function generateCsv(rows: number, padding = 0): string {
  const lines = [HEADER];
  const start = Date.parse("2025-01-02T14:30:00Z");
  const pad = "x".repeat(padding);
  for (let i = 0; i < rows; i++) {
    const side = i % 2 === 0 ? "BUY" : "SELL";
    const symbol = ["AAPL", "MSFT", "NVDA", "SPY", "QQQ"][Math.floor(i / 2) % 5];
    const price = (100 + (i % 97) + (i % 7) / 4).toFixed(2);
    lines.push(`${new Date(start + i * 60_000).toISOString()},${symbol},${side},${1 + (i % 5) * 10},${price},1.25,EX-${i},${pad}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The same file with futures symbols (the generic preset reads them as futures, with their multipliers). */
export function futuresCsv(csv: string): string {
  const roots: Record<string, string> = { AAPL: "ESZ26", MSFT: "NQZ26", NVDA: "YMZ26", SPY: "RTYZ26", QQQ: "CLZ26" };
  return csv.replace(/,(AAPL|MSFT|NVDA|SPY|QQQ),/g, (_m, symbol: string) => `,${roots[symbol]},`);
}

export function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

export async function measureImports(env: Record<string, string>, databaseUrl: string) {
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl });
  const base = server.url;
  const pid = server.child.pid!;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { cookie, newAccount, importFile, undo } = await importer(base);

    // 10,000 rows: the import through the API, and the floor: parse the same file, then insert the same
    // rows into fills in one statement. Each into a fresh account; one import first to warm the server up,
    // then the two taken in turns, median of IMPORT_ROUNDS.
    const csv = generateCsv(10_000);
    const timedImport = async () => {
      const accountId = await newAccount();
      const started = performance.now();
      const run = await importFile(csv, accountId);
      return { ...run, ms: performance.now() - started };
    };
    const timedFloor = async () => {
      const floorAccount = await newAccount();
      const started = performance.now();
      const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.slice(1);
      const rows = parsed.map((r) => ({ executed_at: r[0], symbol: r[1], side: r[2]!.toLowerCase(), quantity: r[3], price: r[4], fees: r[5], execution_id: r[6] }));
      await db.query(
        `insert into fills (account_id, symbol, asset_class, multiplier, side, quantity, price, fees, executed_at, execution_id)
         select $1, symbol, 'stock', 1, side, quantity, price, fees, executed_at, execution_id
         from jsonb_to_recordset($2::jsonb) as x(symbol text, side text, quantity numeric, price numeric, fees numeric, executed_at timestamptz, execution_id text)`,
        [floorAccount, JSON.stringify(rows)],
      );
      return performance.now() - started;
    };
    await timedImport();
    const importTimes: number[] = [];
    const floorTimes: number[] = [];
    const previewTimes: number[] = [];
    const commitTimes: number[] = [];
    let fillsCreated = 0;
    for (let i = 0; i < IMPORT_ROUNDS; i++) {
      const run = await timedImport();
      importTimes.push(run.ms);
      previewTimes.push(run.previewMs);
      commitTimes.push(run.commitMs);
      fillsCreated = run.fillsCreated;
      floorTimes.push(await timedFloor());
    }
    const importMs = median(importTimes);
    const floorMs = median(floorTimes);
    const copyMs = bareCopyMs(csv, databaseUrl);

    // Undo, and the same file as futures (their cash settles after the positions are rebuilt), each into a
    // fresh account right after its import: the tables' statistics lag a fresh write, and a plan misjudged
    // on them once read the whole ledger per fill (10 s to undo, 12 s to commit futures). Median of 3.
    const undoTimes: number[] = [];
    const futureTimes: number[] = [];
    const futures = futuresCsv(csv);
    for (let i = 0; i < 3; i++) {
      const stock = await importFile(csv, await newAccount());
      undoTimes.push(await undo(stock.importId));
      const future = await importFile(futures, await newAccount());
      futureTimes.push(future.commitMs);
    }

    // 10 MB: 10,000 rows of ~1 KB; the server's peak RSS growth over the run.
    const big = generateCsv(10_000, 960);
    const bigBytes = Buffer.byteLength(big);
    const peakOf = async (run: () => Promise<unknown>) => {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
      const before = memoryOf(pid);
      await run();
      return { rssBefore: before.rss, peakGrowth: memoryOf(pid).hwm - before.rss };
    };
    const long = await peakOf(async () => importFile(big, await newAccount()));
    // 10 MB of short rows (165,505), over the default CSV_IMPORT_MAX_ROWS: what refusing it costs.
    const short = generateCsv(SHORT_ROWS);
    const refused = await peakOf(async () => {
      const form = new FormData();
      form.set("file", new Blob([short]), "bench.csv");
      form.set("request", JSON.stringify({ accountId: await newAccount(), presetId: "generic" }));
      const res = await fetch(`${base}/api/csv-import/preview`, { method: "POST", headers: { Cookie: cookie }, body: form });
      if (res.status !== 413) throw new Error(`the over-cap preview answered ${res.status}`);
      await res.arrayBuffer();
    });
    return {
      fillsCreated,
      importMs,
      previewMs: median(previewTimes),
      commitMs: median(commitTimes),
      undoMs: median(undoTimes),
      futuresCommitMs: median(futureTimes),
      floorMs,
      copyMs,
      bigBytes,
      ...long,
      shortBytes: Buffer.byteLength(short),
      refusedGrowth: refused.peakGrowth,
    };
  } finally {
    await db.end();
    await server.stop();
  }
}

/** A user signed up on the server at `base`: new accounts, and a file imported (preview + commit) with its timings. */
export async function importer(base: string) {
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `import-bench-${crypto.randomUUID()}@example.com`, password: "benchmark password" }),
  });
  const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
  const newAccount = async () => {
    const res = await fetch(`${base}/api/accounts`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ name: `Bench ${crypto.randomUUID()}`, currency: "USD", timezone: "Etc/UTC" }),
    });
    return ((await res.json()) as { id: string }).id;
  };
  /** Preview and commit of `csv` (the generic preset, or the `mapping` or preset given); their wall times. */
  const importFile = async (csv: string, accountId: string, mapping?: Record<string, string>, presetId = "generic") => {
    const form = new FormData();
    form.set("file", new Blob([csv]), "bench.csv");
    form.set("request", JSON.stringify(mapping ? { accountId, mapping } : { accountId, presetId }));
    const previewStarted = performance.now();
    const preview = await fetch(`${base}/api/csv-import/preview`, { method: "POST", headers: { Cookie: cookie }, body: form });
    if (preview.status !== 201) throw new Error(`preview answered ${preview.status}: ${await preview.text()}`);
    const { importId } = (await preview.json()) as { importId: string };
    const commitStarted = performance.now();
    const commit = await fetch(`${base}/api/csv-import/commit`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ importId }),
    });
    if (commit.status !== 200) throw new Error(`commit answered ${commit.status}: ${await commit.text()}`);
    const { fillsCreated } = (await commit.json()) as { fillsCreated: number };
    return { importId, fillsCreated, previewMs: commitStarted - previewStarted, commitMs: performance.now() - commitStarted };
  };
  /** Undoes a committed import; its wall time. */
  const undo = async (importId: string) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/csv-import/${importId}/undo`, { method: "POST", headers: { Cookie: cookie } });
    if (res.status !== 200) throw new Error(`undo answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    return performance.now() - started;
  };
  return { cookie, newAccount, importFile, undo };
}

/**
 * The same 10 MB of short rows imported by a server whose caps an operator raised to take it
 * (CSV_IMPORT_MAX_ROWS, CSV_IMPORT_MAX_STAGED_BYTES): the peak RSS growth of preview + commit over the
 * process at rest, each round on a fresh process (a process that already imported it has grown its heap,
 * and would hide the growth).
 */
export async function measureRaisedCapImport(env: Record<string, string>, databaseUrl: string) {
  const short = generateCsv(SHORT_ROWS);
  const growths: number[] = [];
  const times: number[] = [];
  const rests: number[] = [];
  let fills = 0;
  for (let round = 0; round < RAISED_ROUNDS; round++) {
    const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl, CSV_IMPORT_MAX_ROWS: "200000", CSV_IMPORT_MAX_STAGED_BYTES: String(64 * 1024 * 1024) });
    try {
      const base = server.url;
      const pid = server.child.pid!;
      const { newAccount, importFile } = await importer(base);
      const run = async (csv: string) => (await importFile(csv, await newAccount())).fillsCreated;
      await run(generateCsv(2_000)); // warm-up
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
      const before = memoryOf(pid);
      const started = performance.now();
      fills = await run(short);
      times.push(performance.now() - started);
      growths.push(memoryOf(pid).hwm - before.rss);
      rests.push(before.rss);
    } finally {
      await server.stop();
    }
  }
  return { fills, ms: median(times), rssBefore: median(rests), peakGrowth: median(growths), min: Math.min(...growths), max: Math.max(...growths) };
}

/**
 * The barest floor: psql's \copy of the same file into a plain table (no indexes, no constraints), the
 * server's time as psql's \timing reports it, median of 5; null without psql.
 */
function bareCopyMs(csv: string, databaseUrl: string): number | null {
  const file = join(tmpdir(), `bench-copy-${process.pid}.csv`);
  writeFileSync(file, csv);
  try {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const out = execFileSync(
        "psql",
        [
          "-q",
          databaseUrl,
          "-c",
          "drop table if exists bench_plain; create table bench_plain (executed_at timestamptz, symbol text, side text, quantity numeric, price numeric, fees numeric, execution_id text, notes text)",
          "-c",
          "\\timing on",
          "-c",
          `\\copy bench_plain from '${file}' with (format csv, header true)`,
          "-c",
          "drop table bench_plain",
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
      );
      const copy = /Time: ([\d.]+) ms/.exec(out);
      if (copy) times.push(Number(copy[1]));
    }
    return times.length ? median(times) : null;
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Rows and bytes of issue 40's file (tenMegabyteCsv). */
export const OUTSIDE_ROWS = 165_505;
export const OUTSIDE_BYTES = 10_000_000;
export const OUTSIDE_ROUNDS = 3;

/**
 * Issue 40's file: exactly OUTSIDE_BYTES of OUTSIDE_ROWS generic-layout stock rows (Date/Time, Symbol, Side,
 * Quantity, Price, Fees, Execution ID), New York times with a -05:00 offset, 200 symbols, 40 round trips a
 * weekday from 2017-01-02 (a buy, then its sell minutes later); the execution ids are zero-padded to land on
 * the exact size.
 */
export function tenMegabyteCsv(): string {
  const header = "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID";
  const symbols = Array.from({ length: 200 }, (_, i) => `S${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`);
  const rows: Array<[string, string]> = []; // [the row before its id, its id]
  let day = Date.parse("2017-01-02T14:30:00Z"); // 09:30 New York (EST)
  const pad = (n: number) => String(n).padStart(2, "0");
  while (rows.length < OUTSIDE_ROWS) {
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) {
      for (let trip = 0; trip < 40 && rows.length < OUTSIDE_ROWS; trip++) {
        const n = rows.length;
        const symbol = symbols[(n / 2 + Math.floor(n / 80)) % 200 | 0]!;
        const quantity = 10 * (1 + (trip % 9));
        const price = 20 + ((n * 7919) % 40_000) / 100;
        for (const [side, minutes, move] of [["BUY", trip * 9, 0], ["SELL", trip * 9 + 5, (trip % 5) - 2]] as const) {
          if (rows.length === OUTSIDE_ROWS) break;
          const t = new Date(day + minutes * 60_000 - 5 * 3_600_000); // the wall clock in New York
          const time = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:00-05:00`;
          rows.push([`${time},${symbol},${side},${quantity},${(price + move / 10).toFixed(2)},1.00,`, String(rows.length)]);
        }
      }
    }
    day += 86_400_000;
  }
  const bytes = header.length + 1 + rows.reduce((n, [line, id]) => n + line.length + id.length + 1, 0);
  const missing = OUTSIDE_BYTES - bytes;
  if (missing < 0) throw new Error(`the rows take ${bytes} bytes, over ${OUTSIDE_BYTES}`);
  const each = Math.floor(missing / rows.length);
  const lines = rows.map(([line, id], i) => `${line}${id.padStart(id.length + each + (i < missing % rows.length ? 1 : 0), "0")}`);
  return `${header}\n${lines.join("\n")}\n`;
}

/** Samples a process's VmRSS every 10 ms from another process; stop() gives the peak seen. */
async function rssSampler(pid: number): Promise<{ stop: () => Promise<number> }> {
  const script = `const fs = require("node:fs"); let max = 0;
    const read = () => { try { const m = /VmRSS:\\s+(\\d+) kB/.exec(fs.readFileSync("/proc/${pid}/status", "utf8")); if (m) max = Math.max(max, Number(m[1]) * 1024); } catch {} };
    read(); setInterval(read, 10); process.stdout.write("ready\\n");
    process.on("SIGTERM", () => { read(); process.stdout.write(String(max) + "\\n"); process.exit(0); });`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve) => {
    const check = () => (out.includes("ready") ? resolve() : setTimeout(check, 5));
    check();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      return Number(out.trim().split("\n").at(-1));
    },
  };
}

/** The tables a commit writes rows into: each fill, its ledger entry, its share of a trade, and the trades. */
const COMMIT_TABLES = ["fills", "ledger_entries", "position_fills", "positions"] as const;
type CommitTable = (typeof COMMIT_TABLES)[number];

/**
 * The floor of a commit's writes: the rows a commit wrote for `accountId` (its fills, ledger entries, fill
 * shares and trades), copied as they are into empty copies of their tables with the same indexes (no
 * triggers, nothing computed), in one transaction as the commit does. Median of 3, in all and per table.
 */
async function commitWriteFloor(databaseUrl: string, accountId: string): Promise<{ ms: number; perTable: Record<CommitTable, number> }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (const table of COMMIT_TABLES) await db.query(`create table floor_${table} (like ${table} including all excluding generated)`);
    const totals: number[] = [];
    const tableTimes = Object.fromEntries(COMMIT_TABLES.map((table) => [table, [] as number[]])) as Record<CommitTable, number[]>;
    for (let run = 0; run < 3; run++) {
      for (const table of COMMIT_TABLES) await db.query(`truncate floor_${table}`);
      const started = performance.now();
      await db.query("begin");
      for (const table of COMMIT_TABLES) {
        const tableStarted = performance.now();
        await db.query(`insert into floor_${table} select * from ${table} where account_id = $1`, [accountId]);
        tableTimes[table].push(performance.now() - tableStarted);
      }
      await db.query("commit");
      totals.push(performance.now() - started);
    }
    const perTable = Object.fromEntries(COMMIT_TABLES.map((table) => [table, median(tableTimes[table])])) as Record<CommitTable, number>;
    return { ms: median(totals), perTable };
  } finally {
    for (const table of COMMIT_TABLES) await db.query(`drop table if exists floor_${table}`);
    await db.end();
  }
}

/**
 * Issue 40's measure, as an operator's container limit sees it: a fresh server process (production, caps
 * raised to take the file), idle; a new user and account; tenMegabyteCsv's preview then its commit over
 * HTTP; the server's VmRSS sampled from another process every 10 ms from just before the preview to the end of
 * the commit; the peak minus the RSS just before the preview. Median of OUTSIDE_ROUNDS fresh processes, with
 * the preview's and the commit's times.
 */
export async function measureOutsideImport(env: Record<string, string>, databaseUrl: string) {
  const csv = tenMegabyteCsv();
  const rounds: Array<{ growth: number; rest: number; previewMs: number; commitMs: number; fills: number; accountId: string }> = [];
  for (let round = 0; round < OUTSIDE_ROUNDS; round++) {
    const server = await startEntrypoint({ ...env, NODE_ENV: "production", DATABASE_URL: databaseUrl, CSV_IMPORT_MAX_ROWS: "200000", CSV_IMPORT_MAX_STAGED_BYTES: String(64 * 1024 * 1024) });
    try {
      const pid = server.child.pid!;
      const { newAccount, importFile } = await importer(server.url);
      const accountId = await newAccount();
      await new Promise((r) => setTimeout(r, 1000)); // idle
      const sampler = await rssSampler(pid);
      const rest = memoryOf(pid).rss;
      const run = await importFile(csv, accountId);
      const peak = await sampler.stop();
      rounds.push({ growth: peak - rest, rest, previewMs: run.previewMs, commitMs: run.commitMs, fills: run.fillsCreated, accountId });
    } finally {
      await server.stop();
    }
  }
  const growths = rounds.map((r) => r.growth);
  const writeFloor = await commitWriteFloor(databaseUrl, rounds.at(-1)!.accountId);
  return {
    writeFloor,
    bytes: Buffer.byteLength(csv),
    fills: rounds[0]!.fills,
    growth: median(growths),
    min: Math.min(...growths),
    max: Math.max(...growths),
    rest: median(rounds.map((r) => r.rest)),
    previewMs: median(rounds.map((r) => r.previewMs)),
    commitMs: median(rounds.map((r) => r.commitMs)),
    ratios: rounds.map((r) => r.commitMs / r.previewMs),
  };
}
