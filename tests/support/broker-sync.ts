// What the broker sync tests do the same way (tests/node/broker-*.test.ts): an account to connect, a sync
// run to its end through the API, Schwab's sign-in walked through its stand-in.
import { expect } from "vitest";
import type { TestApp } from "./app.ts";
import type { TestClient } from "./client.ts";

/** A new account of the trader's (US dollars, New York), for one connection. */
export async function brokerAccount(client: TestClient, name = "Sync"): Promise<string> {
  return (await (await client.post("/api/accounts", { name: `${name} ${crypto.randomUUID()}`, currency: "USD", timezone: "America/New_York" })).json()).id as string;
}

/** Sync now, carried on after the answer: the run, once the app has settled. */
export async function syncNow(t: TestApp, client: TestClient, accountId: string) {
  const res = await client.post(`/api/accounts/${accountId}/broker-connection/sync`);
  expect(res.status).toBe(202);
  const { runId } = await res.json();
  await t.settled();
  const { runs } = await (await client.get(`/api/accounts/${accountId}/broker-connection/runs`)).json();
  return runs.find((r: { id: string }) => r.id === runId);
}

/** The account's connection as GET shows it (null when it has none). */
export async function connectionOf(client: TestClient, accountId: string) {
  return (await (await client.get(`/api/accounts/${accountId}/broker-connection`)).json()).connection;
}

/** Schwab's sign-in: start (302 to Schwab), the stand-in's Allow link, the callback (302 back); where it went. */
export async function schwabSignIn(client: TestClient, accountId: string, query = "") {
  const start = await client.request(`/api/accounts/${accountId}/broker-connection/oauth/schwab/start${query}`, { redirect: "manual" });
  expect(start.status, await start.clone().text()).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  const page = await (await fetch(authorize)).text();
  const allow = new URL(/href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, "&"));
  const back = await client.request(`${allow.pathname}${allow.search}`, { redirect: "manual" });
  expect(back.status, await back.clone().text()).toBe(302);
  return { authorize, allow, location: new URL(back.headers.get("location")!) };
}
