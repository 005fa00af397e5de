import { createApp, type AppOptions, type Group } from "../lib/http/index.ts";
import { accountsGroup } from "./accounts.ts";
import { authGroup } from "./auth.ts";
import { brokeragesGroup } from "./brokerages.ts";
import { configGroup } from "./config.ts";
import { csvImportGroup } from "./csv-import.ts";
import { fillsGroup } from "./fills.ts";
import { healthGroup } from "./health.ts";
import { ledgerGroup } from "./ledger.ts";
import { statsGroup } from "./stats.ts";
import { tradesGroup } from "./trades.ts";

/** The API with the given groups mounted. */
export function buildApp(options: AppOptions, groups: readonly Group[]) {
  const app = createApp(options);
  for (const group of groups) app.route(group.prefix, group.app);
  return app;
}

/** Route types for a typed client in web/ (hono/client). */
export function typedRoutes() {
  return createApp({ deps: () => undefined as never })
    .route(healthGroup.prefix, healthGroup.app)
    .route(configGroup.prefix, configGroup.app)
    .route(authGroup.prefix, authGroup.app)
    .route(accountsGroup.prefix, accountsGroup.app)
    .route(brokeragesGroup.prefix, brokeragesGroup.app)
    .route(ledgerGroup.prefix, ledgerGroup.app)
    .route(fillsGroup.prefix, fillsGroup.app)
    .route(tradesGroup.prefix, tradesGroup.app)
    .route(statsGroup.prefix, statsGroup.app)
    .route(csvImportGroup.prefix, csvImportGroup.app);
}
export type AppType = ReturnType<typeof typedRoutes>;
