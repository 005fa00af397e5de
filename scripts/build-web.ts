// `npm run build:web`: the browser app (web/) built by Vite into web/dist, which the Node entrypoint and
// the web container serve. `npm run dev` calls buildWebIfStale() so a fresh clone serves the real app.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST_INDEX = join(ROOT, "web/dist/index.html");

// What the bundle is built from: the app, its config, and the shared server modules it imports.
const SOURCES = ["web/src", "web/public", "web/index.html", "web/vite.config.ts", "lib/money.ts", "package-lock.json"];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why web/dist needs a build, or null when it is up to date. */
export function staleReason(): string | null {
  if (!existsSync(DIST_INDEX)) return "web/dist is missing";
  const built = statSync(DIST_INDEX).mtimeMs;
  const changed = SOURCES.find((s) => newestMtime(join(ROOT, s)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

export async function buildWeb(): Promise<void> {
  const started = Date.now();
  // Always the production app, whoever builds it: Vite, the React plugin (jsx or jsxDEV) and packages'
  // "development"/"production" exports all follow NODE_ENV, which vitest sets to "test" (the e2e setup
  // builds here); a web/dist the tests built would then be served by `npm run dev` and `npm start`.
  const env = process.env; // eslint-disable-line no-restricted-properties -- the build's NODE_ENV, not configuration
  const nodeEnv = env.NODE_ENV;
  env.NODE_ENV = "production";
  try {
    await build({ configFile: join(ROOT, "web/vite.config.ts"), logLevel: "warn", mode: "production" });
  } finally {
    if (nodeEnv === undefined) delete env.NODE_ENV;
    else env.NODE_ENV = nodeEnv;
  }
  console.log(`web/dist written in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

export async function buildWebIfStale(): Promise<void> {
  const reason = staleReason();
  if (!reason) {
    console.log("web/dist is up to date.");
    return;
  }
  console.log(`Building the browser app (${reason})…`);
  await buildWeb();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildWeb();
