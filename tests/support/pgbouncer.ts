// Debian's pgbouncer in transaction mode on a free port, in front of a local Postgres: for the pooler test
// (tests/node/pooler.test.ts) and the load benchmark's pooled run (scripts/bench/load.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./entrypoint.ts";

export type PgBouncer = { port: number; process: ChildProcess; stop: () => Promise<void>; output: () => string; via: (databaseUrl: string) => string };

/** `url` with its port swapped for `port`. */
export function databaseVia(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

/**
 * pgbouncer on a free port (or `port`, to start it again where it was), in transaction mode, in front of the
 * Postgres at `targetPort`, with `poolSize` server connections per database; resolves once `probeUrl`'s
 * database answers through it.
 */
export async function startPgBouncer(probeUrl: string, { targetPort = 5432, poolSize = 3, maxClients = 100, port: fixed }: { targetPort?: number; poolSize?: number; maxClients?: number; port?: number } = {}): Promise<PgBouncer> {
  const port = fixed ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "journal-pgbouncer-"));
  const ini = join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=127.0.0.1 port=${targetPort} user=postgres`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "auth_type = any",
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      `max_client_conn = ${maxClients}`,
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
  );
  // pgbouncer refuses to run as root: there it switches to the postgres user (-u).
  const args = [...(process.getuid?.() === 0 ? ["-u", "postgres"] : []), ini];
  const child = spawn("pgbouncer", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const spawned = await new Promise<Error | undefined>((resolve) => {
    child.once("error", resolve);
    child.once("spawn", () => resolve(undefined));
  });
  if (spawned) throw new Error(`pgbouncer could not start (${spawned.message}): install Debian's package (apt-get install pgbouncer), as .ci/run does`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const answers = async () => {
    const client = new pg.Client({ connectionString: databaseVia(probeUrl, port) });
    try {
      await client.connect();
      return (await client.query("select 1 as one")).rows[0]?.one === 1;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  };
  const started = Date.now();
  while (!(await answers())) {
    if (child.exitCode !== null || Date.now() - started > 10_000) {
      await stop();
      throw new Error(`pgbouncer did not answer within 10 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, process: child, stop, output: () => output, via: (url) => databaseVia(url, port) };
}
