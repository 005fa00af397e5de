// A migrated embedded database kept as a template: creating a PGlite cluster runs initdb (~1.2 s here) and
// migrating it ~1.1 s more, while loading a saved copy of a migrated one takes ~0.4 s. The first fresh start
// on a machine saves the template; later fresh starts (a newcomer's first `npm run dev` after a clean
// checkout, every `pglite:memory` test server) load it. The key is a hash of every migration file and the
// PGlite version, so a template never stands in for another schema. Best effort: a template that cannot be
// read or written only costs the slow path.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../paths.ts";

const CACHE_DIR = join(ROOT, "node_modules/.cache/trading-journal");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

let cachedKey: string | undefined;
/** Hash of the migrations (schema, functions, post-migrations) and the PGlite version. */
export function templateKey(): string {
  if (cachedKey) return cachedKey;
  const hash = createHash("sha256");
  const pglite = JSON.parse(readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string };
  hash.update(`pglite ${pglite.version}\n`);
  const migrations = join(ROOT, "migrations");
  for (const file of filesUnder(migrations)) hash.update(file.slice(migrations.length)).update("\0").update(readFileSync(file)).update("\0");
  cachedKey = hash.digest("hex").slice(0, 20);
  return cachedKey;
}

const templateFile = () => join(CACHE_DIR, `pglite-${templateKey()}.tar`);

/** The saved template for the current migrations, or undefined. */
export function readTemplate(): Blob | undefined {
  try {
    const file = templateFile();
    return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
  } catch {
    return undefined;
  }
}

/** Saves a migrated database's dump as the template (written aside, then renamed: never half a file). */
export async function saveTemplate(dump: Blob): Promise<void> {
  const file = templateFile();
  const partial = `${file}.${randomBytes(4).toString("hex")}.partial`;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, file);
  } catch {
    rmSync(partial, { force: true });
  }
}
