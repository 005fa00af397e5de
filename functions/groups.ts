import { createApp, type AppOptions } from "../lib/http/index.ts";
import { buildApp } from "./app.ts";
import { accountsGroup } from "./accounts.ts";
import { adminGroup } from "./admin.ts";
import { advisorGroup } from "./advisor.ts";
import { billingGroup } from "./billing.ts";
import { authGroup } from "./auth.ts";
import { passkeysGroup } from "./passkeys.ts";
import { brokeragesGroup } from "./brokerages.ts";
import { archiveGroup } from "./archive.ts";
import { changelogGroup } from "./changelog.ts";
import { configGroup } from "./config.ts";
import { csvImportGroup } from "./csv-import.ts";
import { docsGroup } from "./docs.ts";
import { fillsGroup } from "./fills.ts";
import { healthGroup } from "./health.ts";
import { journalsGroup } from "./journals.ts";
import { ledgerGroup } from "./ledger.ts";
import { instrumentsGroup, quotesGroup, symbolsGroup } from "./market.ts";
import { splitsGroup } from "./splits.ts";
import { strategiesGroup } from "./strategies.ts";
import { playbooksGroup } from "./playbooks.ts";
import { daysGroup } from "./days.ts";
import { rulesGroup } from "./rules.ts";
import { insightsGroup } from "./insights.ts";
import { tagsGroup } from "./tags.ts";
import { barsGroup } from "./bars.ts";
import { statsGroup } from "./stats.ts";
import { settingsGroup } from "./settings.ts";
import { digestGroup } from "./digest.ts";
import { reportsGroup } from "./reports.ts";
import { propFirmsGroup } from "./prop-firms.ts";
import { simulationsGroup } from "./simulations.ts";
import { taxGroup } from "./tax.ts";
import { menteesGroup, mentorsGroup, publicGroup, sharesGroup } from "./sharing.ts";
import { tradesGroup } from "./trades.ts";

/**
 * Every endpoint group. The Node entrypoint (and `wrangler dev`'s all-in-one Worker) mount them all; a
 * deployed Worker imports only its own group, so its bundle carries only that group's code.
 */
export const groups = {
  health: healthGroup,
  config: configGroup,
  auth: authGroup,
  passkeys: passkeysGroup,
  accounts: accountsGroup,
  brokerages: brokeragesGroup,
  ledger: ledgerGroup,
  fills: fillsGroup,
  trades: tradesGroup,
  journals: journalsGroup,
  splits: splitsGroup,
  strategies: strategiesGroup,
  playbooks: playbooksGroup,
  days: daysGroup,
  rules: rulesGroup,
  insights: insightsGroup,
  tags: tagsGroup,
  bars: barsGroup,
  stats: statsGroup,
  settings: settingsGroup,
  digest: digestGroup,
  reports: reportsGroup,
  propFirms: propFirmsGroup,
  simulations: simulationsGroup,
  tax: taxGroup,
  shares: sharesGroup,
  public: publicGroup,
  mentors: mentorsGroup,
  mentees: menteesGroup,
  csvImport: csvImportGroup,
  advisor: advisorGroup,
  billing: billingGroup,
  symbols: symbolsGroup,
  quotes: quotesGroup,
  instruments: instrumentsGroup,
  admin: adminGroup,
  changelog: changelogGroup,
  archive: archiveGroup,
  docs: docsGroup,
} as const;

export type GroupName = keyof typeof groups;

/** The whole API: every group mounted (Node entrypoint, tests). */
export function buildFullApp(options: AppOptions) {
  return buildApp(options, Object.values(groups));
}

/** Route types for a typed client in web/ (hono/client). */
export function typedRoutes() {
  return createApp({ deps: () => undefined as never })
    .route(healthGroup.prefix, healthGroup.app)
    .route(configGroup.prefix, configGroup.app)
    .route(authGroup.prefix, authGroup.app)
    .route(passkeysGroup.prefix, passkeysGroup.app)
    .route(accountsGroup.prefix, accountsGroup.app)
    .route(brokeragesGroup.prefix, brokeragesGroup.app)
    .route(ledgerGroup.prefix, ledgerGroup.app)
    .route(fillsGroup.prefix, fillsGroup.app)
    .route(tradesGroup.prefix, tradesGroup.app)
    .route(journalsGroup.prefix, journalsGroup.app)
    .route(splitsGroup.prefix, splitsGroup.app)
    .route(strategiesGroup.prefix, strategiesGroup.app)
    .route(playbooksGroup.prefix, playbooksGroup.app)
    .route(daysGroup.prefix, daysGroup.app)
    .route(rulesGroup.prefix, rulesGroup.app)
    .route(insightsGroup.prefix, insightsGroup.app)
    .route(tagsGroup.prefix, tagsGroup.app)
    .route(barsGroup.prefix, barsGroup.app)
    .route(statsGroup.prefix, statsGroup.app)
    .route(settingsGroup.prefix, settingsGroup.app)
    .route(digestGroup.prefix, digestGroup.app)
    .route(reportsGroup.prefix, reportsGroup.app)
    .route(propFirmsGroup.prefix, propFirmsGroup.app)
    .route(simulationsGroup.prefix, simulationsGroup.app)
    .route(taxGroup.prefix, taxGroup.app)
    .route(sharesGroup.prefix, sharesGroup.app)
    .route(publicGroup.prefix, publicGroup.app)
    .route(mentorsGroup.prefix, mentorsGroup.app)
    .route(menteesGroup.prefix, menteesGroup.app)
    .route(csvImportGroup.prefix, csvImportGroup.app)
    .route(advisorGroup.prefix, advisorGroup.app)
    .route(billingGroup.prefix, billingGroup.app)
    .route(symbolsGroup.prefix, symbolsGroup.app)
    .route(quotesGroup.prefix, quotesGroup.app)
    .route(instrumentsGroup.prefix, instrumentsGroup.app)
    .route(adminGroup.prefix, adminGroup.app)
    .route(changelogGroup.prefix, changelogGroup.app)
    .route(archiveGroup.prefix, archiveGroup.app)
    .route(docsGroup.prefix, docsGroup.app);
}
export type AppType = ReturnType<typeof typedRoutes>;
