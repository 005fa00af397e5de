// `npm run db:migrate`: applies the migrations (and post-migrations unless SKIP_POST_MIGRATIONS=true) to
// DIRECT_DATABASE_URL or DATABASE_URL, then exits. For Workers deployments, which never migrate at start.
// `npm run db:migrate -- --post` always runs the post-migrations: the out-of-band step for operators who
// set SKIP_POST_MIGRATIONS=true.
import { loadNodeConfigOrExit } from "../lib/config/index.ts";
import { isEmbeddedUrl } from "../lib/db/client.ts";
import { migrateUrl } from "../lib/db/migrate.ts";
import { createEmbeddedDb } from "../lib/db/node.ts";

const config = await loadNodeConfigOrExit();
const url = config.migrationDatabaseUrl;
const embedded = isEmbeddedUrl(url) ? await createEmbeddedDb(url) : undefined;
try {
  const skipPost = config.SKIP_POST_MIGRATIONS && !process.argv.includes("--post");
  const report = await migrateUrl(
    url,
    { skipPost, onFunctions: (r) => console.log(`Function files applied: ${r.applied.join(", ") || "none"}; dropped: ${r.dropped.join(", ") || "none"}.`) },
    embedded,
  );
  console.log(
    `Migrations applied.${report.postSkipped ? " Post-migrations skipped (SKIP_POST_MIGRATIONS=true)." : ` Post-migrations applied now: ${report.postApplied.length ? report.postApplied.join(", ") : "none"}.`}`,
  );
} finally {
  await embedded?.close();
}
