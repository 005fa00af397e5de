import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import accountsWorker from "../../functions/workers/accounts.ts";
import { apiRequest as request, call, registered, type CallInit } from "./http.ts";

// A broker connection inside workerd through the accounts Worker's own entry as deployed: the adapters run
// in the brokers Worker behind its BROKERS binding (built by the global setup), against the brokers' stand-in;
// a refusal crosses the binding as data and is still a 400 naming the field.

async function viaAccounts(path: string, init: CallInit) {
  const ctx = createExecutionContext();
  const res = await accountsWorker.fetch(request(path, init), { ...env }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("broker sync in workerd", () => {
  it("connects Alpaca and pulls its fills through the brokers Worker; refused keys are a 400 naming them", async () => {
    const cookie = await registered("brokers");
    const account = (await (await call("/api/accounts", { method: "POST", cookie, json: { name: "Alpaca", currency: "USD", timezone: "America/New_York" } })).json()) as { id: string };
    const path = `/api/accounts/${account.id}/broker-connection`;

    const refused = await viaAccounts(path, { method: "PUT", cookie, json: { provider: "alpaca", keyId: "PKNOBODY00000000", secret: "nosecretnosecret00", paper: true } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { fields: Array<{ path: string }> } }).error.fields[0]!.path).toBe("keyId");

    const saved = await viaAccounts(path, { method: "PUT", cookie, json: { provider: "alpaca", ...inject("alpacaKey"), paper: true } });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await saved.json()).toMatchObject({ provider: "alpaca", verified: true, accountNumber: "PAWORKERD01" });

    const started = await viaAccounts(`${path}/sync`, { method: "POST", cookie });
    expect(started.status).toBe(202);
    const { runs } = (await (await call(`${path}/runs`, { cookie })).json()) as { runs: Array<{ status: string; imported: number; error: string | null }> };
    expect(runs[0]).toMatchObject({ status: "succeeded", imported: 2, error: null });
  });
});
