// Every table, one file per domain in lib/db/schema/ (a table's foreign keys name the others'); this file is the
// single source drizzle-kit generates migrations from (`npm run db:generate`), and `schema` is what the drizzle
// clients are given.
export * from "./schema/auth.ts";
export * from "./schema/accounts.ts";
export * from "./schema/ledger.ts";
export * from "./schema/trades.ts";
export * from "./schema/market.ts";
export * from "./schema/discipline.ts";
export * from "./schema/stats.ts";
export * from "./schema/imports.ts";
export * from "./schema/sync.ts";
export * from "./schema/fx.ts";
export * from "./schema/prop.ts";
export * from "./schema/billing.ts";
export * from "./schema/advisor.ts";
export * from "./schema/admin.ts";
export * from "./schema/sharing.ts";

import { users, sessions, emailTokens, signInFailures, userTotp, backupCodes, signInChallenges, accessTokens, knownDevices, passkeys, webauthnFlows } from "./schema/auth.ts";
import { brokerages, accounts } from "./schema/accounts.ts";
import { ledgerEntries, ledgerDays, ledgerMonths, ledgerDaysPending } from "./schema/ledger.ts";
import { fills, positions, positionFills, tradeJournals, journalFills, splits, tradeImages, archiveRestoreImages } from "./schema/trades.ts";
import { symbols, symbolLoads } from "./schema/market.ts";
import { playbooks, dayJournals, tradingRules, tagKinds } from "./schema/discipline.ts";
import { statsGroups, statsDrawdownDays, statsPending, statsMonthVersions, statsBaseMonths, statsBaseGroups } from "./schema/stats.ts";
import { csvImports, objectDeletions } from "./schema/imports.ts";
import { storedKeys } from "./schema/sync.ts";
import { userSettings, fxRates, fxRateDays, fxDaily, fxOverrides } from "./schema/fx.ts";
import { wallets, walletMovements, creditHolds, paymentEvents, creditPurchases, billingCustomers, subscriptions } from "./schema/billing.ts";
import { advisorConversations, advisorMessages, advisorSettings } from "./schema/advisor.ts";
import { adminAudit, changelogCache } from "./schema/admin.ts";

export const schema = {
  users,
  sessions,
  emailTokens,
  brokerages,
  accounts,
  ledgerEntries,
  ledgerDays,
  ledgerMonths,
  ledgerDaysPending,
  fills,
  positions,
  positionFills,
  statsGroups,
  statsDrawdownDays,
  statsPending,
  tradeJournals,
  journalFills,
  playbooks,
  dayJournals,
  tradingRules,
  tagKinds,
  signInFailures,
  userTotp,
  backupCodes,
  signInChallenges,
  accessTokens,
  knownDevices,
  passkeys,
  webauthnFlows,
  splits,
  csvImports,
  objectDeletions,
  tradeImages,
  archiveRestoreImages,
  storedKeys,
  wallets,
  walletMovements,
  creditHolds,
  paymentEvents,
  creditPurchases,
  billingCustomers,
  subscriptions,
  advisorConversations,
  advisorMessages,
  advisorSettings,
  symbols,
  symbolLoads,
  adminAudit,
  changelogCache,
  userSettings,
  fxRates,
  fxRateDays,
  fxDaily,
  fxOverrides,
  statsMonthVersions,
  statsBaseMonths,
  statsBaseGroups,
};
