// A Postgres cluster of the load benchmark's own (scripts/bench/load.ts), on a free port, that it may restart
// in the middle of a run: the machine's shared Postgres (127.0.0.1:5432) is never restarted. Debian's
// PostgreSQL binaries (initdb, pg_ctl); as root they run as the postgres user, as Postgres requires.
import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./entrypoint.ts";

const run = promisify(execFile);
const BIN = "/usr/lib/postgresql/15/bin";

export type PrivatePostgres = { port: number; url: (database: string) => string; restart: (downMs?: number) => Promise<{ downAt: number; upAt: number }>; stop: () => Promise<void> };

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = process.getuid?.() === 0;
  const as = async (cmd: string, args: string[]) => (root ? run("runuser", ["-u", "postgres", "--", cmd, ...args]) : run(cmd, args));
  const dir = mkdtempSync(join(tmpdir(), "journal-private-pg-"));
  const data = join(dir, "data");
  if (root) chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout.trim()), Number((await run("id", ["-g", "postgres"])).stdout.trim()));
  const port = await freePort();
  await as(`${BIN}/initdb`, ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c jit=off`;
  const start = () => as(`${BIN}/pg_ctl`, ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    // Stopped fast (every connection terminated, as a restart does), kept down `downMs`, started again.
    restart: async (downMs = 2000) => {
      await as(`${BIN}/pg_ctl`, ["-D", data, "-m", "fast", "-w", "stop"]);
      const downAt = Date.now();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
      return { downAt, upAt: Date.now() };
    },
    stop: async () => {
      await as(`${BIN}/pg_ctl`, ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
