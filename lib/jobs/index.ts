import { lt, or } from "drizzle-orm";
import { purgeSignInFailures } from "../auth/lockout.ts";
import { purgeSignInChallenges } from "../auth/two-factor.ts";
import { purgeKnownDevices } from "../auth/devices.ts";
import { purgeWebauthnFlows } from "../auth/passkeys.ts";
import { purgeEmailTokens } from "../auth/email-tokens.ts";
import { sessions } from "../db/schema.ts";
import { purgeExpiredImports, recoverOrphanedImports } from "../imports/imports.ts";
import { releaseExpiredHolds } from "../billing/wallet.ts";
import { loadTickers } from "../market/tickers.ts";
import { expireOptions } from "../trades/expiry.ts";
import { computeExcursions } from "../trades/excursions.ts";
import { drainBarQueue } from "../market/bar-queue.ts";
import { syncDueConnections } from "../sync/sync.ts";
import { discardStaleArchiveImages } from "../archive/staged.ts";
import { settlePending } from "../maintained/settle.ts";
import { fetchRecentRates } from "../fx/rates.ts";
import type { Job } from "./run.ts";

export { runJobs, startScheduler, type Job } from "./run.ts";
import { checkWarnings } from "../prop/warnings.ts";



export const purgeExpiredSessions: Job = {
  name: "purge-expired-sessions",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  async run(deps) {
    const now = deps.now();
    const removed = await deps.db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now)))
      .returning({ id: sessions.id });
    // And the failed sign-ins the lockout no longer counts, the sign-in challenges past their 5 minutes, and devices unseen for 400 days.
    return { affected: removed.length + (await purgeSignInFailures(deps)) + (await purgeSignInChallenges(deps)) + (await purgeKnownDevices(deps)) + (await purgeWebauthnFlows(deps)) };
  },
};

export const purgeEmailTokensJob: Job = {
  name: "purge-email-tokens",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  run: async (deps) => ({ affected: await purgeEmailTokens(deps) }),
};

export const purgeStagedImportsJob: Job = {
  name: "purge-expired-imports",
  cron: "*/5 * * * *",
  everyMinutes: 5,
  // And the images of archive imports a stopped process left staged for more than a day.
  run: async (deps) => ({ affected: (await purgeExpiredImports(deps)) + (await discardStaleArchiveImages(deps)) }),
};

export const recoverImportsJob: Job = {
  name: "recover-orphaned-imports",
  cron: "*/5 * * * *",
  everyMinutes: 5,
  run: async (deps) => ({ affected: await recoverOrphanedImports(deps) }),
};

/** Holds whose RESERVATION_TTL_MS ran out (a turn whose process died before settling) give their credits back. */
export const releaseExpiredHoldsJob: Job = {
  name: "release-expired-holds",
  cron: "*/5 * * * *",
  everyMinutes: 5,
  run: async (deps) => ({ affected: await releaseExpiredHolds(deps) }),
};

/**
 * The regulator's ticker file: every tick asks whether the table is empty or older than 24 h (one cheap
 * UPDATE), so it loads shortly after start and then daily, on Node and on the jobs Worker's cron alike.
 */
export const loadTickersJob: Job = {
  name: "load-tickers",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  async run(deps) {
    const outcome = await loadTickers(deps);
    return { affected: outcome.status === "loaded" ? outcome.rows : 0 };
  },
};

/** Options still open after their expiry close at 0 (lib/trades/expiry.ts); each write of fills does so too. */
export const expireOptionsJob: Job = {
  name: "expire-options",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  run: async (deps) => ({ affected: await expireOptions(deps) }),
};

/** Excursions of closed trades whose bars arrived or whose fills changed (lib/trades/excursions.ts). */
export const computeExcursionsJob: Job = {
  name: "compute-excursions",
  cron: "*/5 * * * *",
  everyMinutes: 5,
  run: async (deps) => ({ affected: await computeExcursions(deps) }),
};

/** Queued bar days fetched from the bar provider on their users' keys (lib/market/bar-queue.ts). */
export const fetchBarsJob: Job = {
  name: "fetch-bars",
  cron: "* * * * *",
  everyMinutes: 1,
  run: async (deps) => ({ affected: await drainBarQueue(deps) }),
};

/** Broker connections pulled on their schedule; runs whose process died are failed (lib/sync/sync.ts). */
export const brokerSyncJob: Job = {
  name: "broker-sync",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  run: async (deps) => ({ affected: await syncDueConnections(deps) }),
};

/** The statistics' noted days refreshed in the background, so the first read after an import rarely waits (lib/maintained/settle.ts). */
export const settleStatisticsJob: Job = {
  name: "settle-statistics",
  cron: "* * * * *",
  everyMinutes: 1,
  run: async (deps) => ({ affected: await settlePending(deps) }),
};

/** The latest reference rates asked ahead of the reads, once any user has a base currency (lib/fx/rates.ts). */
export const fetchRatesJob: Job = {
  name: "fetch-rates",
  cron: "*/15 * * * *",
  everyMinutes: 15,
  run: async (deps) => ({ affected: await fetchRecentRates(deps) }),
};

/** Prop-firm warnings after the fills that brought an evaluation under its trader's thresholds (lib/prop/warnings.ts). */
export const propWarningsJob: Job = {
  name: "prop-warnings",
  cron: "* * * * *",
  everyMinutes: 1,
  run: async (deps) => ({ affected: await checkWarnings(deps) }),
};

export const JOBS: readonly Job[] = [
  purgeExpiredSessions,
  purgeEmailTokensJob,
  purgeStagedImportsJob,
  recoverImportsJob,
  releaseExpiredHoldsJob,
  loadTickersJob,
  expireOptionsJob,
  computeExcursionsJob,
  fetchBarsJob,
  brokerSyncJob,
  settleStatisticsJob,
  fetchRatesJob,
  propWarningsJob,
];

