import type { PgDatabase } from "drizzle-orm/pg-core";
import { schema } from "./schema.ts";

/** The one database type domain code sees, whatever the transport underneath. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each driver has its own result HKT; domain code only uses the query builder
export type Db = PgDatabase<any, typeof schema>;

export type DbKind = "pg" | "pglite" | "neon-http";

export type DbHandle = {
  readonly db: Db;
  readonly kind: DbKind;
  /** Whether interactive transactions (db.transaction) are available on this transport. */
  readonly interactiveTransactions: boolean;
  close(): Promise<void>;
};

export type PgOptions = {
  poolSize: number;
  /** DB_TRANSACTION_POOLER: a transaction-mode pooler cannot keep named prepared statements. */
  transactionPooler: boolean;
  connectTimeoutMs?: number;
  onError?: (err: Error) => void;
};

const PGLITE_SCHEME = /^pglite:/;

/** `pglite:memory` (or `pglite:`) is in-memory; `pglite:./path` persists to a folder. */
export function isEmbeddedUrl(url: string): boolean {
  return PGLITE_SCHEME.test(url);
}

export function embeddedDataDir(url: string): string | undefined {
  const rest = url.replace(PGLITE_SCHEME, "").replace(/^\/\//, "");
  return rest === "" || rest === "memory" ? undefined : rest;
}

/** Node: a node-postgres pool, or the embedded PGlite database for a `pglite:` URL. */
export async function createNodeDb(url: string, options: PgOptions): Promise<DbHandle> {
  if (isEmbeddedUrl(url)) return createEmbeddedDb(url);
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");

  // A transaction pooler routes each statement to any server connection, so a statement prepared
  // under a name on one may be missing on the next. Dropping the name keeps the unnamed extended
  // protocol, which poolers support, for every query including those inside transactions.
  class UnnamedStatementClient extends pg.Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query overloads
    override query(config: any, ...rest: any[]): any {
      if (config && typeof config === "object" && "name" in config) {
        const { name: _dropped, ...unnamed } = config;
        return super.query(unnamed, ...rest);
      }
      return super.query(config, ...rest);
    }
  }

  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    ...(options.transactionPooler ? { Client: UnnamedStatementClient } : {}),
  });
  // An idle client losing its server (database restart) must not crash the process; the pool drops
  // it and the next checkout reconnects.
  pool.on("error", (err) => options.onError?.(err));
  const db = drizzle(pool, { schema }) as unknown as Db;
  return { db, kind: "pg", interactiveTransactions: true, close: () => pool.end() };
}

export async function createEmbeddedDb(url: string): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dataDir = embeddedDataDir(url);
  if (dataDir) {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dataDir, { recursive: true });
  }
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: "pglite", interactiveTransactions: true, close: () => client.close() };
}

export type NeonOptions = {
  /** Where SQL-over-HTTP goes; unset means the provider's own endpoint for the URL's host. */
  httpEndpoint?: string | undefined;
};

/**
 * Edge: the serverless driver over HTTP. One statement (or one `batch`) per round trip, each atomic;
 * no interactive transactions (use single-statement mutations, or `withNeonTransaction`).
 */
export async function createNeonHttpDb(url: string, options: NeonOptions): Promise<DbHandle> {
  const { neon, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-http");
  if (options.httpEndpoint) neonConfig.fetchEndpoint = options.httpEndpoint;
  const db = drizzle(neon(url), { schema }) as unknown as Db;
  return { db, kind: "neon-http", interactiveTransactions: false, close: async () => {} };
}

/**
 * Edge, where an interactive transaction is unavoidable: a WebSocket pool that lives for one call.
 * `wsEndpoint` replaces the provider's WebSocket proxy (tests and local runs use the bridge).
 */
export async function withNeonTransaction<T>(
  url: string,
  options: { wsEndpoint?: string | undefined },
  fn: (tx: Db) => Promise<T>,
): Promise<T> {
  const { Pool, neonConfig } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-serverless");
  if (options.wsEndpoint) {
    // The driver prepends ws:// or wss:// itself and expects host[:port]/path.
    const bare = options.wsEndpoint.replace(/^wss?:\/\//, "");
    neonConfig.useSecureWebSocket = options.wsEndpoint.startsWith("wss:");
    neonConfig.wsProxy = (host, port) => `${bare}?address=${host}:${port}`;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  try {
    const db = drizzle(pool, { schema }) as unknown as Db;
    return await db.transaction((tx) => fn(tx as unknown as Db));
  } finally {
    await pool.end();
  }
}
