// Prop-firm evaluations (issue 56; docs/prop-firms.md) against the real Node entrypoint:
// - the status after one more fill on an evaluation holding 20,000 fills, against GET /api/accounts/:id, in
//   turns (goal: within 3x);
// - a replay of a year of 100,000 trades (200,000 fills) under one rule set, the engine alone, in this process
//   (goal: under 2 s).
import { importer } from "./imports.ts";
import { timeInterleaved } from "./startup.ts";
import { startEntrypoint } from "../../tests/support/entrypoint.ts";
import { runEvaluation, type PropFill } from "../../lib/prop/engine.ts";
import { PROP_PRESETS } from "../../lib/prop/presets.ts";

export const EVALUATION_FILLS = 20_000;
export const REPLAY_TRADES = 100_000;
export const PROP_ROUNDS = 30;

/** `trades` round trips of one ES contract, 4 minutes apart, P&L between -250 and +250 (a small edge). */
function roundTrips(trades: number, start: number): Array<{ at: string; side: "buy" | "sell"; price: string }> {
  const out: Array<{ at: string; side: "buy" | "sell"; price: string }> = [];
  for (let i = 0; i < trades; i++) {
    const at = start + i * 240_000;
    const move = ((i * 7919) % 21) - 9.5;
    out.push({ at: new Date(at).toISOString(), side: "buy", price: "5000" });
    out.push({ at: new Date(at + 120_000).toISOString(), side: "sell", price: (5000 + move / 4).toFixed(2) });
  }
  return out;
}

export async function measureProp(env: Record<string, string>, databaseUrl: string) {
  const server = await startEntrypoint({ ...env, DATABASE_URL: databaseUrl, CSV_IMPORT_MAX_ROWS: String(EVALUATION_FILLS) });
  const base = server.url;
  try {
    const { cookie, newAccount, importFile } = await importer(base);
    const accountId = await newAccount();
    const start = Date.parse("2026-01-05T14:30:00Z");
    const lines = ["Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID"];
    for (const [n, f] of roundTrips(EVALUATION_FILLS / 2, start).entries()) lines.push(`${f.at},ESM6,${f.side},1,${f.price},1.00,E-${n}`);
    await importFile(`${lines.join("\n")}\n`, accountId);
    const preset = PROP_PRESETS.find((p) => p.id === "topstep-combine-50k")!;
    // Loose enough rules that the 20,000 fills stay active (every fill is read either way).
    const rules = { ...preset.rules, maxDrawdown: "40000", dailyLossLimit: null, maxContracts: null };
    const put = await fetch(`${base}/api/accounts/${accountId}/evaluation`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ firm: preset.firm, phase: "evaluation", startDate: "2026-01-05", ...rules }),
    });
    if (put.status !== 200) throw new Error(`PUT evaluation answered ${put.status}: ${await put.text()}`);
    const get = (path: string) => async () => {
      const res = await fetch(`${base}${path}`, { headers: { Cookie: cookie } });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    let n = 0;
    const oneMoreFill = async () => {
      n += 1;
      const res = await fetch(`${base}/api/fills`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({ accountId, symbol: "ESM6", side: n % 2 ? "buy" : "sell", quantity: "1", price: "5000", executedAt: new Date(start + (EVALUATION_FILLS + n) * 120_000).toISOString() }),
      });
      if (res.status !== 201) throw new Error(`a fill answered ${res.status}: ${await res.text()}`);
    };
    const times = await timeInterleaved(PROP_ROUNDS, { status: { prepare: oneMoreFill, run: get(`/api/accounts/${accountId}/evaluation`) }, account: get(`/api/accounts/${accountId}`) }, 3);

    // The engine alone over a year of 100,000 trades.
    const fills: PropFill[] = roundTrips(REPLAY_TRADES, Date.parse("2025-01-02T14:30:00Z")).map((f, i) => ({ id: String(i), at: f.at, symbol: "ESM6", side: f.side, quantity: "1", price: f.price, fees: "1", multiplier: "50" }));
    const replayStarted = performance.now();
    const replay = runEvaluation({ ...preset.rules, maxDrawdown: "45000", dailyLossLimit: null, maxContracts: null }, fills, [], new Date("2026-06-01T00:00:00Z"));
    const replayMs = performance.now() - replayStarted;
    return { statusMs: times.status, accountMs: times.account, replayMs, replayDays: replay.days.length };
  } finally {
    await server.stop();
  }
}
