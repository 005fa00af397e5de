// The floor for the ledger page through HTTP: a bare node:http server, in its own process like the
// entrypoint, answering the page from the same prepared statement over one pg connection. No framework, no
// session check, no validation: what any Node server must spend on top of the statement. Started by
// scripts/bench/ledger.ts (fork: it reports "ready" once listening, with its port).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { readProcessEnv } from "../../lib/config/index.ts";
import { ledgerPageSql } from "../../lib/ledger/ledger.ts";

const { DATABASE_URL, USER_ID, ACCOUNT_ID } = await readProcessEnv({ dotenvPath: false });
const client = new pg.Client({ connectionString: DATABASE_URL });
await client.connect();
const dialect = new PgDialect();

const server = http.createServer((req, res) => {
  const page = Number(new URL(req.url ?? "/", "http://floor").searchParams.get("page") ?? 1);
  const q = dialect.sqlToQuery(ledgerPageSql(USER_ID!, ACCOUNT_ID!, { page, pageSize: 50 }));
  client.query<{ body: string }>({ name: "ledger_page_floor", text: q.sql, values: q.params as unknown[] }).then(
    ({ rows }) => {
      res.setHeader("Content-Type", "application/json");
      res.end(rows[0]!.body);
    },
    () => {
      res.statusCode = 500;
      res.end();
    },
  );
});
server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on("disconnect", () => {
  server.close();
  void client.end();
});
