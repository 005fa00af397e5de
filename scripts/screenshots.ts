// `npm run screenshots`: runs the main end-to-end flow (tests/e2e/journal.test.ts: sign-up, the import
// preview) and the demo journal (tests/e2e/demo.test.ts: the dashboard, trades, ledger and a journaled trade
// on `npm run seed:demo`'s history), which write their screenshots to test-results/screenshots, and copies
// the README's to docs/screenshots.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FROM = join(ROOT, "test-results/screenshots");
const TO = join(ROOT, "docs/screenshots");

const run = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--project", "e2e", "tests/e2e/journal.test.ts", "tests/e2e/demo.test.ts"], {
  cwd: ROOT,
  stdio: "inherit",
});
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(TO, { recursive: true });
// The flow's own shots of its two trades ("flow-*") are for looking at a failure, not for the README.
const files = readdirSync(FROM).filter((f) => f.endsWith(".png") && !f.startsWith("flow-"));
for (const file of files) cpSync(join(FROM, file), join(TO, file));
console.log(`${files.length} screenshots copied to docs/screenshots.`);
