// Node transports: a node-postgres pool, or PGlite for an embedded `pglite:` URL. Never bundled into a Worker.
import { schema } from "./schema.ts";
import { isEmbeddedUrl, embeddedDataDir, type Db, type DbHandle } from "./client.ts";

export type PgOptions = {
  poolSize: number;
  /** DB_TRANSACTION_POOLER: a transaction-mode pooler cannot keep named prepared statements. */
  transactionPooler: boolean;
  connectTimeoutMs?: number;
  /**
   * Longest wait for one statement's answer before the client gives up (503 to the caller): a partition
   * that holds packets rather than refusing them must not hold every pool connection for its duration.
   * Well above any statement of this service (a large import commit takes seconds).
   */
  queryTimeoutMs?: number;
  onError?: (err: Error) => void;
};

export const DEFAULT_QUERY_TIMEOUT_MS = 120_000;

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
    query_timeout: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
    // TCP keepalives: a server that vanished is noticed on idle connections too.
    keepAlive: true,
    ...(options.transactionPooler ? { Client: UnnamedStatementClient } : {}),
  });
  // An idle client losing its server (database restart) must not crash the process; the pool drops
  // it and the next checkout reconnects.
  pool.on("error", (err) => options.onError?.(err));
  const db = drizzle(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "pg",
    interactiveTransactions: true,
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/** `template: false` builds a new cluster even when a migrated template is saved (a test of migrating from nothing). */
export async function createEmbeddedDb(url: string, options: { template?: boolean } = {}): Promise<DbHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dataDir = embeddedDataDir(url);
  if (dataDir) {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dataDir, { recursive: true });
  }
  // A new cluster (in memory, or a folder without one yet) starts from the migrated template when there is one.
  const { existsSync } = await import("node:fs");
  const fresh = !dataDir || !existsSync(`${dataDir}/PG_VERSION`);
  const useTemplate = fresh && options.template !== false;
  const template = useTemplate ? (await import("./pglite-template.ts")).readTemplate() : undefined;
  const start = template ? { loadDataDir: template } : {};
  const client = dataDir ? new PGlite(dataDir, start) : new PGlite(start);
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    interactiveTransactions: true,
    ...(useTemplate && !template
      ? { saveTemplate: async () => (await import("./pglite-template.ts")).saveTemplate(await client.dumpDataDir("none")) }
      : {}),
    close: () => client.close(),
  };
}
