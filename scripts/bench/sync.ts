// Broker sync (issue 54; docs/imports.md "Broker sync") against the real Node entrypoint in its own process:
// a first sync of 50,000 fills from the Alpaca stand-in (tests/support/broker-server.ts), paged as Alpaca pages
// (100 a page: 500 requests, each with its keys checked), against an upload of the same fills as a file with
// the same preset (goal: within 1.3x), each into a fresh account, in turns; and the server's peak RSS growth
// over a sync (VmHWM, reset before it; goal: under 150 MB above idle).
import Papa from "papaparse";
import { findPreset } from "../../lib/imports/presets.ts";
import { adapter as alpaca, type AlpacaFill } from "../../lib/sync/adapters/alpaca.ts";
import { startBrokerServer } from "../../tests/support/broker-server.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { importer, memoryOf } from "./imports.ts";
import { median } from "./startup.ts";

export const SYNC_FILLS = 50_000;
export const SYNC_ROUNDS = 3;

function fills(n: number): AlpacaFill[] {
  const start = Date.parse("2024-01-02T14:30:00Z");
  return Array.from({ length: n }, (_, i) => {
    const at = new Date(start + i * 60_000);
    const id = `${at.toISOString().replace(/\D/g, "").slice(0, 17)}::${String(i).padStart(8, "0")}-7a51-4c2b-9a4e-1f0e5d3c2b1a`;
    const symbol = ["AAPL", "MSFT", "NVDA", "SPY", "QQQ"][Math.floor(i / 2) % 5]!;
    return { id, activity_type: "FILL", transaction_time: at.toISOString(), type: "fill", price: (100 + (i % 97) + (i % 7) / 4).toFixed(2), qty: String(1 + (i % 5) * 10), side: i % 2 === 0 ? "buy" : "sell", symbol, leaves_qty: "0", order_id: `ord-${i}`, cum_qty: "1", order_status: "filled" };
  });
}

export async function measureSync(env: Record<string, string>, databaseUrl: string) {
  const brokers = await startBrokerServer();
  // The upload of 50,000 rows needs the operator's caps raised; the sync has its own row limit.
  const server = await startEntrypoint({ ...env, ...brokers.env, DATABASE_URL: databaseUrl, CSV_IMPORT_MAX_ROWS: String(SYNC_FILLS), CSV_IMPORT_MAX_FILE_BYTES: String(64 * 1024 * 1024), MAX_UPLOAD_SIZE: String(65 * 1024 * 1024), CSV_IMPORT_MAX_STAGED_BYTES: String(128 * 1024 * 1024) });
  const base = server.url;
  const pid = server.child.pid!;
  try {
    const { cookie, newAccount, importFile } = await importer(base);
    const records = fills(SYNC_FILLS);
    const csv = Papa.unparse({ fields: findPreset("alpaca")!.headers, data: alpaca.normalise(records) });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers: { Cookie: cookie, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const timedSync = async () => {
      const accountId = await newAccount();
      const acct = `PA${crypto.randomUUID().slice(0, 8)}`;
      brokers.alpaca.fills.set(acct, records);
      await call("PUT", `/api/accounts/${accountId}/broker-connection`, { provider: "alpaca", ...brokers.alpacaKey(acct), paper: true });
      const started = performance.now();
      const { runId } = (await call("POST", `/api/accounts/${accountId}/broker-connection/sync`)) as { runId: string };
      for (;;) {
        const { runs } = (await call("GET", `/api/accounts/${accountId}/broker-connection/runs`)) as { runs: Array<{ id: string; status: string; imported: number; error: string | null }> };
        const run = runs.find((r) => r.id === runId)!;
        if (run.status === "failed") throw new Error(`the sync failed: ${run.error}`);
        if (run.status === "succeeded") {
          if (run.imported !== SYNC_FILLS) throw new Error(`the sync imported ${run.imported}`);
          return performance.now() - started;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const timedUpload = async () => {
      const accountId = await newAccount();
      const started = performance.now();
      const run = await importFile(csv, accountId, undefined, "alpaca");
      if (run.fillsCreated !== SYNC_FILLS) throw new Error(`the upload created ${run.fillsCreated}`);
      return performance.now() - started;
    };
    await timedUpload(); // the server warmed up once
    const syncTimes: number[] = [];
    const uploadTimes: number[] = [];
    for (let i = 0; i < SYNC_ROUNDS; i++) {
      uploadTimes.push(await timedUpload());
      syncTimes.push(await timedSync());
    }
    await writeClearRefs(pid);
    const before = memoryOf(pid);
    await timedSync();
    const peakGrowth = memoryOf(pid).hwm - before.rss;
    return { syncMs: median(syncTimes), uploadMs: median(uploadTimes), peakGrowth, rssBefore: before.rss, pages: Math.ceil(SYNC_FILLS / 100) };
  } finally {
    await server.stop();
    await brokers.close();
  }
}

export function writeClearRefs(pid: number) {
  // Resets VmHWM to the current RSS (Linux: "5" to clear_refs), so the peak read after is the sync's own.
  return import("node:fs").then(({ writeFileSync }) => writeFileSync(`/proc/${pid}/clear_refs`, "5"));
}
