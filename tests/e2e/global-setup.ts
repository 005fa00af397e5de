import type { TestProject } from "vitest/node";
import { readProcessEnv } from "../../lib/config/index.ts";
import { buildWebIfStale } from "../../scripts/build-web.ts";
import { createMigratedDatabase, dropDatabase } from "../support/database.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { baseTestEnv } from "../support/env.ts";
import { startFxServer } from "../support/fx-server.ts";
import { startProviderServer } from "../support/provider-server.ts";
import { billingEnv, startPaymentServer } from "../support/payment-server.ts";
import { startMarketServer } from "../support/market-server.ts";
import { release, startReleasesServer } from "../support/releases-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The payment provider's stand-in (tests/support/payment-server.ts). */
    paymentUrl: string;
    /** The server's database, for what only an operator does (the CLI's promote-admin). */
    e2eDatabaseUrl: string;
  }
}

/**
 * The built browser app (web/dist, rebuilt here when older than its sources) served by the real Node entrypoint on a
 * fresh, migrated database. Every test file drives it through its own browser context.
 */
export default async function setup(project: TestProject) {
  await buildWebIfStale();
  const db = await createMigratedDatabase("journal_e2e_test");
  const { PATH } = await readProcessEnv({ dotenvPath: false });
  // The model and market-data providers' stand-in (tests/support/provider-server.ts): a key's text decides its answer.
  const providers = await startProviderServer();
  const payments = await startPaymentServer();
  // The ticker file and quote provider's stand-in: the server's scheduler loads the file shortly after start.
  const market = await startMarketServer();
  // The releases API's stand-in: one release from before any test user signed up, one "published" tomorrow
  // (unread for everyone), with markdown and raw HTML that must show as text.
  const releases = await startReleasesServer();
  // The rate service's stand-in (Frankfurter's API): a base currency's reference rates.
  const fx = await startFxServer();
  releases.releases = [
    release("v2.0.0", new Date(Date.now() + 86_400_000).toISOString(), "## Market data\n\n- Symbol search as you type.\n- <b>raw html</b> stays text."),
    release("v1.0.0", "2026-01-01T00:00:00Z", "First release."),
  ];
  // Checkout returns to the request's own origin (no WEB_BASE_URL): the port is only known once it listens.
  const { WEB_BASE_URL: _unset, ...billing } = billingEnv(payments);
  const server = await startEntrypoint({ PATH: PATH ?? "", ...baseTestEnv(), ...providers.env, ...market.env, ...fx.env, CHANGELOG_RELEASES_BASE_URL: releases.url, TRUSTED_PROXIES: "127.0.0.1/32,::1/128", ...billing, DATABASE_URL: db.url }).catch(async (err) => {
    await providers.close();
    await payments.close();
    await market.close();
    await releases.close();
    await fx.close();
    await dropDatabase(db.name);
    throw err;
  });
  project.provide("baseUrl", server.url);
  project.provide("paymentUrl", payments.url);
  project.provide("e2eDatabaseUrl", db.url);
  return async () => {
    await server.stop();
    await market.close();
    await releases.close();
    await fx.close();
    await providers.close();
    await payments.close();
    await dropDatabase(db.name);
  };
}
