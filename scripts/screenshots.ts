// `npm run screenshots`: runs the main end-to-end flow (tests/e2e/journal.test.ts), which writes its
// screenshots to test-results/screenshots, and copies them to docs/screenshots for the README.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FROM = join(ROOT, "test-results/screenshots");
const TO = join(ROOT, "docs/screenshots");

const run = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "e2e", "tests/e2e/journal.test.ts"], {
  cwd: ROOT,
  stdio: "inherit",
});
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(TO, { recursive: true });
const files = readdirSync(FROM).filter((f) => f.endsWith(".png"));
for (const file of files) cpSync(join(FROM, file), join(TO, file));
console.log(`${files.length} screenshots copied to docs/screenshots.`);
