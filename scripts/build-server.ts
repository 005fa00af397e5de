// Builds the Node server (functions/node-main.ts, with functions/node-server.ts) into .server/server.mjs with esbuild: one module (plus a
// chunk per part loaded on first use) loads in about half the time of ~300 modules type-stripped one by one
// (docs/architecture.md, "Start-up").
// functions/node.ts builds it when it is missing or older than a source file, and runs it;
// `npm run build:server` builds it ahead (a deploy step, or to see the figures). Packages that load files
// next to their own code (PGlite's WebAssembly, argon2's native addon) or that the server loads only when first needed (the AI SDK,
// the S3 and payment SDKs, metrics) stay outside and are imported from node_modules as before.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SERVER_ENTRY = join(ROOT, "functions/node-main.ts");
/** One level below the root, like lib/ (lib/paths.ts finds the root from either). */
export const SERVER_DIR = join(ROOT, ".server");
export const SERVER_BUNDLE = join(SERVER_DIR, "server.mjs");

const EXTERNAL = ["argon2", "@electric-sql/pglite", "@electric-sql/pglite/*", "pg-native", "ai", "@ai-sdk/*", "@aws-sdk/*", "prom-client", "stripe", "resend", "nodemailer", "esbuild"];

/**
 * A CommonJS package the server loads with import() stays outside the bundle, loaded by Node as from source.
 * With splitting, esbuild gives such a chunk only a default export (evanw/esbuild#3245), so
 * `const { parse } = await import("dotenv")` found no `parse`: `npm start` failed on a .env file, and a
 * shared rate-limit store was never used (`Ratelimit` undefined, so every limit fell back to the stricter
 * local one). Node's own loader finds a CommonJS module's named exports, as it does from source.
 */
const lazyCommonJs: import("esbuild").Plugin = {
  name: "lazy-commonjs-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== "dynamic-import" || args.pluginData === "probing") return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "probing" });
      if (resolved.errors.length || resolved.external || !resolved.path) return undefined;
      return isCommonJs(resolved.path) ? { path: args.path, external: true } : undefined;
    });
  },
};

/** A .cjs file, or a .js file whose nearest package.json does not say "type": "module". */
function isCommonJs(file: string): boolean {
  if (file.endsWith(".cjs")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { type?: string }).type !== "module";
  }
  return true;
}

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
      plugins: [lazyCommonJs],
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
