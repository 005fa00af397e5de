// Fee schedules (lib/accounts/fees.ts): an account's broker charges per share, per contract, per order with a
// minimum and a maximum, and in percent of the notional, applied on import only to rows that carry no fee,
// each such fee marked estimated on its fill; a fee typed in later is reported, not estimated. Real Postgres.
import { describe, expect, inject, it } from "vitest";
import { estimateFee } from "../../lib/accounts/fees.ts";
import { journal } from "../support/app.ts";
import { GENERIC_HEADER } from "../support/csv.ts";

const url = () => inject("databaseUrl");

describe("estimateFee", () => {
  it("adds per order, per unit and percent, then holds to the minimum and maximum, exactly", () => {
    const stock = { assetClass: "stock" as const, quantity: "100", price: "50", multiplier: "1" };
    expect(estimateFee({ stock: { perUnit: "0.005", minimum: "1" } }, stock)).toBe("1.00"); // 0.50, raised to the minimum
    expect(estimateFee({ stock: { perUnit: "0.005", minimum: "1" } }, { ...stock, quantity: "1000" })).toBe("5.00");
    expect(estimateFee({ stock: { perOrder: "4.95" } }, stock)).toBe("4.95");
    // 0.05 % of 5,000 = 2.50; 0.0035 per share on 100 = 0.35; held to at most 1 % of ... a maximum of 2.
    expect(estimateFee({ stock: { percent: "0.05" } }, stock)).toBe("2.50");
    expect(estimateFee({ stock: { percent: "0.05", perUnit: "0.0035", maximum: "2" } }, stock)).toBe("2.00");
    // Options and futures per contract; a class without a rule has no estimate.
    const option = { assetClass: "option" as const, quantity: "3", price: "2.15", multiplier: "100" };
    expect(estimateFee({ option: { perUnit: "0.65" } }, option)).toBe("1.95");
    expect(estimateFee({ stock: { perOrder: "1" } }, option)).toBeNull();
    expect(estimateFee(null, option)).toBeNull();
    expect(estimateFee({ future: { perUnit: "2.25" } }, { assetClass: "future", quantity: "2", price: "6000", multiplier: "50" })).toBe("4.50");
  });
});

describe("an account's fee schedule on import", () => {
  it("fills the fees of rows that carry none, marked estimated; a fee written in the file, 0 included, is kept", async () => {
    const j = await journal(url());
    const { client } = await j.signUp("fees");
    const account = (await (await client.post("/api/accounts", { name: `Fees ${crypto.randomUUID()}`, currency: "USD", timezone: "Etc/UTC" })).json()).id as string;
    const schedule = { stock: { perUnit: "0.005", minimum: "1" }, option: { perUnit: "0.65" } };
    const set = await client.request(`/api/accounts/${account}`, { method: "PATCH", json: { feeSchedule: schedule } });
    expect(set.status).toBe(200);
    expect((await set.json()).feeSchedule).toEqual(schedule);
    // A bad schedule is the schema's.
    for (const bad of [{ stock: { perUnit: "-1" } }, { crypto: {} }, { stock: { perUnit: 0.005 } }]) {
      expect((await client.request(`/api/accounts/${account}`, { method: "PATCH", json: { feeSchedule: bad } })).status, JSON.stringify(bad)).toBe(400);
    }

    const csv = [
      GENERIC_HEADER,
      "2026-03-02T15:00:00Z,AAPL,BUY,1000,190,,E1", // no fee: 1000 x 0.005 = 5.00, estimated
      "2026-03-02T15:10:00Z,AAPL,SELL,1000,191,0,E2", // commission-free, said so: 0, reported
      "2026-03-02T15:20:00Z,MSFT,BUY,10,400,,E3", // no fee: 0.05, raised to the minimum 1.00
      "2026-03-02T15:30:00Z,MSFT,SELL,10,401,0.35,E4", // reported
      "2026-03-02T15:40:00Z,AAPL  270119C00150000,BUY,3,2.15,,E5", // 3 x 0.65 = 1.95
    ].join("\n");
    const form = new FormData();
    form.set("file", new Blob([csv]), "fees.csv");
    form.set("request", JSON.stringify({ accountId: account, presetId: "generic" }));
    const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
    expect(preview.fills.map((f: { fees: string; feesEstimated: boolean }) => [f.fees, f.feesEstimated])).toEqual([
      ["5.00", true],
      ["0.00", false],
      ["1.00", true],
      ["0.35", false],
      ["1.95", true],
    ]);
    expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);
    const fills = (await (await client.get(`/api/fills?accountId=${account}`)).json()).fills as Array<{ id: string; executionId: string; fees: string; feesEstimated: boolean }>;
    const byExec = new Map(fills.map((f) => [f.executionId, f]));
    expect([...["E1", "E2", "E3", "E4", "E5"]].map((e) => [byExec.get(e)!.fees, byExec.get(e)!.feesEstimated])).toEqual([
      ["5.00", true],
      ["0.00", false],
      ["1.00", true],
      ["0.35", false],
      ["1.95", true],
    ]);
    // The estimates moved the cash like any fee.
    const balance = (await (await client.get(`/api/accounts/${account}`)).json()).balance;
    expect(balance).toBe("356.70"); // -190,000 - 5 + 191,000 - 0 - 4,000 - 1 + 4,010 - 0.35 - 645 - 1.95 (nothing to start with)
    // The trader corrects an estimate: it is reported from then on.
    const corrected = await client.request(`/api/fills/${byExec.get("E1")!.id}`, { method: "PATCH", json: { fees: "4.10" } });
    expect(await corrected.json()).toMatchObject({ fees: "4.10", feesEstimated: false });
    // Without a schedule, a row without a fee is 0, reported as the file says.
    await client.request(`/api/accounts/${account}`, { method: "PATCH", json: { feeSchedule: null } });
    const again = new FormData();
    again.set("file", new Blob([[GENERIC_HEADER, "2026-03-03T15:00:00Z,IBM,BUY,10,200,,E9"].join("\n")]), "none.csv");
    again.set("request", JSON.stringify({ accountId: account, presetId: "generic" }));
    const plain = await (await client.request("/api/csv-import/preview", { method: "POST", body: again })).json();
    expect(plain.fills[0]).toMatchObject({ fees: "0.00", feesEstimated: false });
  });
});
