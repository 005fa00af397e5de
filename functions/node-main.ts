// The Node server's command (self-host and local runs): functions/node.ts (`npm start`) runs main() from source
// or from this file's bundle (scripts/build-server.ts), and `npm run dev` calls it too: validate configuration,
// say plainly what stops a start (a port taken, a database out of reach), start the server, stop on a signal.
import { setFlagsFromString } from "node:v8";
import { loadNodeConfigOrExit, type Config } from "../lib/config/index.ts";
import { SETUP_PATH } from "../lib/admin/setup.ts";
import { isDatabaseUnavailable } from "../lib/db/errors.ts";
import { createLogger } from "../lib/log.ts";
import { portHolder, portIsFree } from "../lib/net/port-check.ts";
import { startNodeServer, type NodeServer } from "./node-server.ts";

/** Which database could not be reached (host and port only, never the credentials) and what to do about it. */
export function unreachableDatabase(config: Config, err: unknown): string {
  const variable = config.DIRECT_DATABASE_URL ? "DIRECT_DATABASE_URL" : "DATABASE_URL";
  let where = "";
  try {
    const url = new URL(config.migrationDatabaseUrl);
    where = ` at ${url.hostname}:${url.port || "5432"}`;
  } catch {
    // not a URL: say nothing of it
  }
  const reason = (err instanceof Error ? err.message : String(err)).replace(/postgres(ql)?:\/\/\S+/g, "(the URL)");
  return (
    `The database of ${variable}${where} cannot be reached (${reason}). Check that it is running and that ${variable} is right, ` +
    "or leave DATABASE_URL unset to use the embedded database (nothing to install)."
  );
}

/**
 * V8 lets its old generation grow to as much as 4x what the last full collection left before it collects again.
 * The server holds about 45 MB between requests, so a long streamed answer (a year's Form 8949: 200,000 fills read
 * and dropped a batch at a time, each batch outliving a few young collections) piled up to 4x that in garbage
 * before the first full collection: 166 to 206 MB. A factor of 2 keeps it to about 100 MB, at a small cost in
 * speed (docs/operations.md, "Memory"). An operator's own --heap-growing-percent on node's command line wins.
 */
export const HEAP_GROWING_PERCENT = 100;

/** `banner`: one plain line for a person at a terminal (`npm run dev`) before the JSON log: where to open it, how to stop it. */
export async function main(options: { banner?: boolean } = {}): Promise<void> {
  if (!process.execArgv.some((a) => a.startsWith("--heap-growing-percent"))) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = await loadNodeConfigOrExit();
  const log = createLogger();
  // A port already taken is said before anything touches the database (a second `npm run dev`, say).
  if (!(await portIsFree(config.PORT))) {
    const holder = await portHolder(config.PORT);
    process.stderr.write(`Port ${config.PORT} is already in use${holder ? ` by ${holder}` : ""}. Stop it, or set PORT to another port.\n`);
    process.exit(1);
  }
  if (options.banner) {
    process.stdout.write(`Trading journal: open http://localhost:${config.PORT} in your browser once "listening" appears below. Ctrl+C stops it.\n`);
  }
  let server: NodeServer;
  try {
    server = await startNodeServer(config, { log });
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      process.stderr.write(`${unreachableDatabase(config, err)}\n`);
      process.exit(1);
    }
    log.error("startup failed", { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  // A plain line, never the JSON log: the token is a secret until used.
  if (server.setupToken) {
    process.stdout.write(
      `No administrator yet. Sign up in the browser, then open http://localhost:${config.PORT}${SETUP_PATH}#${server.setupToken} to become this journal's administrator (the link works once, until the server stops).\n`,
    );
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    server.close().then(
      () => {
        clearTimeout(force);
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

