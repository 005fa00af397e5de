// DB_TRANSACTION_POOLER behind a real transaction-mode pooler (Debian's pgbouncer), as a self-hoster runs the
// Node entrypoint against a pooled URL: the pooler hands each transaction to any server connection, so a
// statement prepared under a name on one is missing on the next. With the variable set, the whole flow works;
// migrations go through DIRECT_DATABASE_URL (their advisory lock is held by a session).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readProcessEnv } from "../../lib/config/index.ts";
import { signUpAndImport } from "../support/csv.ts";
import { TestClient } from "../support/client.ts";
import { startEntrypoint, type Entrypoint } from "../support/entrypoint.ts";
import { databaseVia as via, startPgBouncer, type PgBouncer } from "../support/pgbouncer.ts";
import { baseTestEnv } from "../support/env.ts";

const startPgBouncerHere = () => startPgBouncer(inject("databaseUrl"));
const databaseVia = (port: number) => via(inject("databaseUrl"), port);

describe("DB_TRANSACTION_POOLER=true behind pgbouncer in transaction mode", () => {
  let bouncer: PgBouncer;
  let server: Entrypoint;
  beforeAll(async () => {
    bouncer = await startPgBouncerHere();
    const { PATH } = await readProcessEnv({ dotenvPath: false });
    server = await startEntrypoint({
      PATH: PATH ?? "",
      ...baseTestEnv(),
      DATABASE_URL: databaseVia(bouncer.port),
      DIRECT_DATABASE_URL: inject("databaseUrl"),
      DB_TRANSACTION_POOLER: "true",
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await bouncer?.stop();
  });

  it("signs up, imports, pages the ledger, adds fills and reads statistics, many requests at once on 3 server connections", async () => {
    const client = new TestClient(server.url);
    const { accountId, importId, fillsCreated } = await signUpAndImport(client, { startingBalance: "10000", timezone: "Etc/UTC" });
    expect(fillsCreated).toBe(4);
    const account = { id: accountId };

    // Twenty fills added at once: each is a transaction of its own, on whichever server connection is free.
    const added = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post("/api/fills", {
          accountId: account.id,
          symbol: "MSFT",
          side: i % 2 === 0 ? "buy" : "sell",
          quantity: "10",
          price: (400 + i).toFixed(2),
          executedAt: new Date(Date.UTC(2026, 3, 1, 14, i)).toISOString(),
        }),
      ),
    );
    expect(added.map((r) => r.status)).toEqual(Array(20).fill(201));

    // The ledger page is a prepared statement in the API: forty pages at once, the same and different ones.
    const pages = await Promise.all(Array.from({ length: 40 }, (_, i) => client.get(`/api/ledger/${account.id}?page=${1 + (i % 3)}&pageSize=10`)));
    expect(pages.map((r) => r.status)).toEqual(Array(40).fill(200));
    const first = (await pages[0]!.json()) as { entries: Array<{ type: string }>; hasMore: boolean };
    expect(first.entries).toHaveLength(10);
    expect(first.hasMore).toBe(true);
    // Opening + 4 imported + 20 added entries: the last page holds the opening entry.
    const last = (await (await client.get(`/api/ledger/${account.id}?page=3&pageSize=10`)).json()) as { entries: Array<{ type: string }>; hasMore: boolean };
    expect(last.entries.map((e) => e.type).at(-1)).toBe("opening");
    expect(last.entries).toHaveLength(5);
    expect(last.hasMore).toBe(false);

    const summary = (await (await client.get(`/api/stats/summary?accountId=${account.id}`)).json()) as { trades: number };
    // AAPL and ESZ26 round trips, and ten MSFT round trips.
    expect(summary.trades).toBe(12);
    expect((await client.post(`/api/csv-import/${importId}/undo`, {})).status).toBe(200);
    const after = (await (await client.get(`/api/stats/summary?accountId=${account.id}`)).json()) as { trades: number };
    expect(after.trades).toBe(10);
  });

  it("goes through the pooler: with it gone, the API answers 503 and keeps running", async () => {
    const client = new TestClient(server.url);
    expect((await client.post("/api/auth/register", { email: `pooler-${crypto.randomUUID()}@example.com`, password: "pooler password 1" })).status).toBe(201);
    await bouncer.stop();
    const res = await client.get("/api/accounts");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");
    expect(server.child.exitCode).toBeNull();
  });
});
