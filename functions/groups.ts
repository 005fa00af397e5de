import type { AppOptions } from "../lib/http/index.ts";
import { buildApp } from "./app.ts";
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

/**
 * Every endpoint group. The Node entrypoint (and `wrangler dev`'s all-in-one Worker) mount them all; a
 * deployed Worker imports only its own group, so its bundle carries only that group's code.
 */
export const groups = {
  health: healthGroup,
  config: configGroup,
  auth: authGroup,
  accounts: accountsGroup,
  brokerages: brokeragesGroup,
  ledger: ledgerGroup,
  fills: fillsGroup,
  trades: tradesGroup,
  stats: statsGroup,
  csvImport: csvImportGroup,
} as const;

export type GroupName = keyof typeof groups;

/** The whole API: every group mounted (Node entrypoint, tests). */
export function buildFullApp(options: AppOptions) {
  return buildApp(options, Object.values(groups));
}
