// Conformance vectors of the broker sync adapters (lib/sync/adapters; docs/imports.md "Broker sync"): each
// tests/fixtures/sync/<provider>.json holds provider answers as the provider documents them and the fills the
// journal must make of them. The adapter's normaliser (pure) writes the preset's rows, and the preset reads
// them as an upload of the same rows would be read: what a sync stores is what the file would have stored.
import { readFileSync } from "node:fs";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { normalizeCsv } from "../../lib/imports/normalize.ts";
import { PROVIDERS, tableOf } from "../../lib/sync/adapter.ts";
import { adapterFor } from "../../lib/sync/runner.ts";

/** A decimal as written without trailing zeros ("0.8250000000" -> "0.825"): the vectors give amounts, not a format. */
const dec = (v: string) => (v.includes(".") ? v.replace(/\.?0+$/, "") : v);

type Vector = { about: string; answers: unknown[]; fills: Array<Record<string, string>> };

describe("broker sync conformance vectors: provider answers in, fills out", () => {
  it.each(PROVIDERS.map((p) => [p]))("%s", async (provider) => {
    const vector = JSON.parse(readFileSync(new URL(`../fixtures/sync/${provider}.json`, import.meta.url), "utf8")) as Vector;
    const adapter = await adapterFor(provider);
    const table = tableOf(adapter);
    const csv = Papa.unparse({ fields: table.headers, data: adapter.normalise(vector.answers) });
    const read = normalizeCsv(csv, table.mapping, table.options, { timezone: "America/New_York", currency: "USD" }, 10_000);
    expect(read.errors).toEqual([]);
    const fills = read.fills.map((f) => ({
      executedAt: new Date(f.executed_at).toISOString(),
      symbol: f.symbol,
      side: f.side,
      quantity: dec(f.quantity),
      price: dec(f.price),
      fees: dec(f.fees),
      executionId: f.execution_id,
      ...(f.order_id ? { orderId: f.order_id } : {}),
    }));
    expect(fills).toMatchObject(vector.fills);
    expect(fills.map((f) => Object.keys(f).includes("orderId"))).toEqual(vector.fills.map((f) => "orderId" in f));
  });

  it("a record a provider sent broken (no id, no time) fails the normaliser, never half-read", async () => {
    const kraken = await adapterFor("kraken");
    expect(() => kraken.normalise([{ pair: "XXBTZUSD", time: "soon" }])).toThrow(/cannot read/);
  });
});
