// Query keys and reads shared by several screens. Mutations live with their forms and invalidate the
// keys named here.
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client.ts";

export const keys = {
  accounts: ["accounts"] as const,
  account: (id: string) => ["accounts", id] as const,
  brokerages: ["brokerages"] as const,
  ledger: (accountId: string, page: number) => ["ledger", accountId, page] as const,
  ledgerOf: (accountId: string) => ["ledger", accountId] as const,
  trades: ["trades"] as const,
  tradeList: (filters: Record<string, string | undefined>) => ["trades", "list", filters] as const,
  trade: (id: string) => ["trades", id] as const,
  // Under "trades": whatever changes trades (a fill, an import, an undo) refreshes the strategies made of them.
  strategyList: (filters: Record<string, string | undefined>) => ["trades", "strategies", "list", filters] as const,
  strategy: (id: string) => ["trades", "strategies", id] as const,
  instanceConfig: ["config"] as const,
  sessions: ["sessions"] as const,
  twoFactor: ["two-factor"] as const,
  accessTokens: ["access-tokens"] as const,
  passkeys: ["passkeys"] as const,
  changelog: ["changelog"] as const,
  playbooks: ["playbooks"] as const,
  settings: ["settings"] as const,
  fxRates: (from: string, to: string) => ["settings", "fx-rates", from, to] as const,
};

export type Account = Awaited<ReturnType<typeof fetchAccounts>>["accounts"][number];

function fetchAccounts() {
  return unwrap(api.api.accounts.$get());
}

export function useAccounts() {
  return useQuery({ queryKey: keys.accounts, queryFn: fetchAccounts });
}

export function useAccount(id: string) {
  return useQuery({ queryKey: keys.account(id), queryFn: () => unwrap(api.api.accounts[":id"].$get({ param: { id } })) });
}

export type Brokerage = Awaited<ReturnType<typeof fetchBrokerages>>["brokerages"][number];

function fetchBrokerages() {
  return unwrap(api.api.brokerages.$get());
}

export function useBrokerages() {
  return useQuery({ queryKey: keys.brokerages, queryFn: fetchBrokerages });
}

/** The signed-in view of the instance's settings (GET /api/config): optional features, week start. */
/** The user's settings: base currency, digest, privacy mode (docs/currencies.md). */
export function useSettings() {
  return useQuery({ queryKey: keys.settings, queryFn: () => unwrap(api.api.settings.$get()) });
}

export function useInstanceConfig() {
  return useQuery({ queryKey: keys.instanceConfig, queryFn: () => unwrap(api.api.config.$get()), staleTime: Infinity });
}

/** The release notes and how many the user has not seen ("What's new"); quiet when the source is down. */
export function useChangelog() {
  return useQuery({ queryKey: keys.changelog, queryFn: () => unwrap(api.api.changelog.$get()), staleTime: 15 * 60_000, retry: false });
}

/** The user's playbooks, archived ones included (GET /api/playbooks). */
export function usePlaybooks() {
  return useQuery({ queryKey: keys.playbooks, queryFn: () => unwrap(api.api.playbooks.$get({ query: {} })) });
}
