// Node entrypoint (self-host and local runs): `npm start` runs this file. It runs the server
// (functions/node-server.ts) from its bundle, .server/server.mjs, building it first when it is missing
// or older than a source file (scripts/build-server.ts, about 0.2 s), and from source when it cannot be built
// (no esbuild: a production-only install) or when started with --from-source. The bundle starts in a third
// of the time (docs/architecture.md, "Start-up").
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export type { NodeServer, StartOptions } from "./node-server.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUNDLE = join(ROOT, ".server/server.mjs");
/** What the bundle is made of: it is stale when any of these is newer. */
const SOURCES = ["lib", "functions", "package-lock.json"].map((p) => join(ROOT, p));

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** True when .server/server.mjs holds the current sources. */
export function bundleIsFresh(): boolean {
  if (!existsSync(BUNDLE)) return false;
  const built = statSync(BUNDLE).mtimeMs;
  return SOURCES.every((source) => !existsSync(source) || newest(source) <= built);
}

async function server(): Promise<{ main(): Promise<void> }> {
  if (!process.argv.includes("--from-source")) {
    try {
      if (!bundleIsFresh()) await (await import("../scripts/build-server.ts")).buildServer();
      return (await import(pathToFileURL(BUNDLE).href)) as { main(): Promise<void> };
    } catch (err) {
      if ((err as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") {
        console.error(JSON.stringify({ time: new Date().toISOString(), level: "warn", message: "server bundle unavailable, starting from source", error: err instanceof Error ? err.message : String(err) }));
      }
    }
  }
  return import("./node-main.ts");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await (await server()).main();
