// Builds the Node server (functions/node-server.ts) into .server/server.mjs with esbuild: one module (plus a
// chunk per part loaded on first use) loads in about half the time of ~300 modules type-stripped one by one
// (docs/architecture.md, "Start-up").
// functions/node.ts builds it when it is missing or older than a source file, and runs it;
// `npm run build:server` builds it ahead (a deploy step, or to see the figures). Packages that load files
// next to their own code (PGlite's WebAssembly, argon2's native addon) or that the server loads only when first needed (the AI SDK,
// the S3 and payment SDKs, metrics) stay outside and are imported from node_modules as before.
import { randomBytes } from "node:crypto";
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SERVER_ENTRY = join(ROOT, "functions/node-server.ts");
/** One level below the root, like lib/ (lib/paths.ts finds the root from either). */
export const SERVER_DIR = join(ROOT, ".server");
export const SERVER_BUNDLE = join(SERVER_DIR, "server.mjs");

const EXTERNAL = ["argon2", "@electric-sql/pglite", "@electric-sql/pglite/*", "pg-native", "ai", "@ai-sdk/*", "@aws-sdk/*", "prom-client", "stripe", "resend", "nodemailer", "esbuild"];

/**
 * Builds into a folder of its own, then swaps it into place, so a concurrent start never reads half a build.
 * Code loaded with import() becomes a chunk loaded at that moment, with the packages it imports.
 */
export async function buildServer(): Promise<void> {
  const esbuild = await import("esbuild");
  const suffix = randomBytes(4).toString("hex");
  const building = `${SERVER_DIR}-build-${suffix}`;
  const old = `${SERVER_DIR}-old-${suffix}`;
  try {
    await esbuild.build({
      entryPoints: { server: SERVER_ENTRY },
      outdir: building,
      outExtension: { ".js": ".mjs" },
      chunkNames: "chunk-[hash]",
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node22",
      external: EXTERNAL,
      logLevel: "error",
      // CommonJS dependencies (pg) call require() for Node's own modules.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    });
    if (existsSync(SERVER_DIR)) renameSync(SERVER_DIR, old);
    renameSync(building, SERVER_DIR);
  } finally {
    rmSync(building, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
    await esbuild.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  await buildServer();
  console.log(`${SERVER_BUNDLE} built in ${(performance.now() - started).toFixed(0)} ms`);
}
