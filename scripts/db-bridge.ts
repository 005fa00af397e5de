// A local stand-in for the provider's SQL-over-HTTP endpoint and WebSocket proxy, so tests and
// `wrangler dev` run the real serverless driver (@neondatabase/serverless) against the local Postgres
// instead of a mock. Development only: it listens on loopback and reaches loopback databases only.
//
//   POST /sql  the driver's HTTP protocol: `{query, params}` or `{queries: [...]}` (one transaction),
//              the target named by the Neon-Connection-String header; values come back as Postgres text.
//   GET  /v2   a WebSocket upgrade piped byte for byte to the TCP address in `?address=host:port`.
//
// Run: node_modules/.bin/node scripts/db-bridge.ts [port]   (default 4444). See docs/workers.md.
import { createRequire } from "node:module";
import http from "node:http";
import net from "node:net";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { WebSocket } from "ws";

// Loaded with Node's own resolution: the workers test project's global setup imports this file through
// a Vite configured with the Workers conditions ("browser" first), under which `ws` is a stub that throws.
const { WebSocketServer } = createRequire(import.meta.url)("ws") as typeof import("ws");

export type DbBridge = { httpUrl: string; wsUrl: string; port: number; close(): Promise<void> };

type Statement = { query: string; params?: unknown[] };

/** Every value as the text Postgres sent: the driver parses types itself (Neon-Raw-Text-Output). */
const RAW_TEXT = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

// Neon's batch isolation header values, mapped to SQL.
const ISOLATION: Record<string, string> = {
  ReadUncommitted: "read uncommitted",
  ReadCommitted: "read committed",
  RepeatableRead: "repeatable read",
  Serializable: "serializable",
};

// The fields of a Postgres error the driver copies onto its own error object.
const PG_ERROR_FIELDS = [
  "severity", "code", "detail", "hint", "position", "internalPosition", "internalQuery", "where",
  "schema", "table", "column", "dataType", "constraint", "file", "line", "routine",
] as const;

class BridgeError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost") return true;
  if (net.isIPv4(bare)) return bare.startsWith("127.");
  return bare === "::1" || bare === "0:0:0:0:0:0:0:1";
}

export async function startDbBridge(options: { port?: number; host?: string } = {}): Promise<DbBridge> {
  const pools = new Map<string, pg.Pool>();
  const sockets = new Set<net.Socket>();

  function poolFor(connectionString: string | undefined): pg.Pool {
    if (!connectionString) throw new BridgeError(400, "missing Neon-Connection-String header");
    let host: string;
    try {
      host = new URL(connectionString).hostname;
    } catch {
      throw new BridgeError(400, "Neon-Connection-String is not a URL");
    }
    if (!isLoopbackHost(host)) throw new BridgeError(403, `refusing non-loopback database host ${host}`);
    let pool = pools.get(connectionString);
    if (!pool) {
      pool = new pg.Pool({ connectionString, max: 5 });
      pool.on("error", () => {}); // an idle client lost its server; the next query reconnects
      pools.set(connectionString, pool);
    }
    return pool;
  }

  async function run(client: pg.Pool | pg.PoolClient, statement: Statement, arrayMode: boolean) {
    const result = await client.query({
      text: statement.query,
      values: statement.params ?? [],
      rowMode: "array",
      types: RAW_TEXT,
      // Always the extended protocol, like the provider: one statement per query, even without params.
      queryMode: "extended",
    } as pg.QueryArrayConfig);
    const fields = result.fields.map((f) => ({
      name: f.name,
      dataTypeID: f.dataTypeID,
      tableID: f.tableID,
      columnID: f.columnID,
      dataTypeSize: f.dataTypeSize,
      dataTypeModifier: f.dataTypeModifier,
      format: "text",
    }));
    const rows = arrayMode
      ? result.rows
      : (result.rows as unknown[][]).map((row) => Object.fromEntries(row.map((v, i) => [fields[i]!.name, v])));
    return { fields, rows, rowCount: result.rowCount, command: result.command };
  }

  async function runBatch(pool: pg.Pool, statements: Statement[], headers: http.IncomingHttpHeaders, arrayMode: boolean) {
    const isolation = ISOLATION[String(headers["neon-batch-isolation-level"])];
    const modes = [
      isolation ? `isolation level ${isolation}` : "",
      headers["neon-batch-read-only"] === "true" ? "read only" : "",
      headers["neon-batch-deferrable"] === "true" ? "deferrable" : "",
    ].filter(Boolean);
    const client = await pool.connect();
    try {
      await client.query(`begin ${modes.join(" ")}`);
      const results = [];
      for (const statement of statements) results.push(await run(client, statement, arrayMode));
      await client.query("commit");
      return { results };
    } catch (err) {
      await client.query("rollback").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async function answerSql(req: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: { query?: string; params?: unknown[]; queries?: Statement[] };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new BridgeError(400, "body is not JSON");
    }
    const pool = poolFor(req.headers["neon-connection-string"] as string | undefined);
    const arrayMode = req.headers["neon-array-mode"] === "true";
    if (Array.isArray(body.queries)) return runBatch(pool, body.queries, req.headers, arrayMode);
    if (typeof body.query !== "string") throw new BridgeError(400, "body needs `query` or `queries`");
    return run(pool, { query: body.query, params: body.params ?? [] }, arrayMode);
  }

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? "/", "http://bridge").pathname;
    if (req.method !== "POST" || path !== "/sql") return send(404, { message: "POST /sql or WebSocket /v2" });
    answerSql(req).then(
      (result) => send(200, result),
      (err: unknown) => {
        if (err instanceof BridgeError) return send(err.status, { message: err.message });
        if (err instanceof pg.DatabaseError) {
          // What the provider answers for a Postgres error: 400 with the error's fields.
          const fields: Record<string, unknown> = { message: err.message };
          for (const key of PG_ERROR_FIELDS) fields[key] = err[key];
          return send(400, fields);
        }
        // Postgres unreachable and the like: a server error, which the driver reports with this text.
        send(502, { message: err instanceof Error ? err.message : String(err) });
      },
    );
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://bridge");
    const address = url.searchParams.get("address") ?? "";
    const colon = address.lastIndexOf(":");
    const host = address.slice(0, colon);
    const port = Number(address.slice(colon + 1));
    if (url.pathname !== "/v2" || colon < 1 || !Number.isInteger(port) || !isLoopbackHost(host)) {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => pipe(ws, host.replace(/^\[(.*)\]$/, "$1"), port));
  });

  function pipe(ws: WebSocket, host: string, port: number) {
    const tcp = net.connect(port, host); // writes made before the connection opens are queued
    sockets.add(tcp);
    tcp.on("data", (data) => ws.send(data));
    tcp.on("error", () => ws.close());
    tcp.on("close", () => {
      sockets.delete(tcp);
      ws.close();
    });
    ws.on("message", (data: Buffer) => tcp.write(data));
    ws.on("error", () => tcp.destroy());
    ws.on("close", () => tcp.end());
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  const host = options.host ?? "127.0.0.1";
  const origin = `${host.includes(":") ? `[${host}]` : host}:${port}`;

  return {
    httpUrl: `http://${origin}/sql`,
    wsUrl: `ws://${origin}/v2`,
    port,
    async close() {
      for (const client of wss.clients) client.terminate();
      for (const tcp of sockets) tcp.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((p) => p.end()));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 4444);
  const bridge = await startDbBridge({ port });
  console.log(`db bridge: DB_HTTP_ENDPOINT=${bridge.httpUrl}  (WebSocket proxy: ${bridge.wsUrl})`);
  const stop = () => void bridge.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
