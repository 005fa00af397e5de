// The scope of a statistics page (the dashboard, the playbook report), kept in the URL: one account, every
// account, every account of one currency, or (with a base currency set, docs/currencies.md) every account
// converted to the base. Amounts are never added across currencies unconverted.
import { useSearchParams } from "react-router";
import type { Account } from "../api/queries.ts";
import { useAccountParam } from "../pages/import/accounts.ts";
import { SelectField } from "./ui.tsx";

/** One account, every account of one currency, or every account in the base currency (`currency: "base"`). */
export type Filter = { accountId?: string; currency?: string };

/** The select's value for every account in the base currency. */
export const BASE_SCOPE = "currency:base";

/**
 * What a statistics page covers, kept in the URL: `?account=` one account, else every account, or (when the
 * accounts use several currencies) every account of `?currency=` (the first account's currency by default).
 * The select's value is an account id, "" for all accounts, or "currency:XXX".
 */
export function useStatsScope(accounts: readonly Account[], baseCurrency: string | null = null, options: { base?: boolean } = {}) {
  const [params, setParams] = useSearchParams();
  const { accountId, account } = useAccountParam(accounts, true);
  const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
  const asked = params.get("currency")?.toUpperCase() ?? "";
  // In the base: offered (and the default) when the accounts use several currencies and a base is set.
  const base = options.base !== false && baseCurrency !== null && currencies.length > 1 ? baseCurrency : null;
  const inBase = !account && base !== null && (asked === "BASE" || !currencies.includes(asked));
  const byCurrency = !account && !inBase && currencies.length > 1 ? (currencies.includes(asked) ? asked : accounts[0]!.currency) : undefined;
  const choose = (value: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete("account");
        next.delete("currency");
        if (value.startsWith("currency:")) next.set("currency", value.slice("currency:".length));
        else if (value) next.set("account", value);
        return next;
      },
      { replace: true },
    );
  return {
    accountId,
    account,
    currencies,
    filter: (accountId ? { accountId } : inBase ? { currency: "base" } : byCurrency ? { currency: byCurrency } : {}) as Filter,
    value: accountId || (inBase ? BASE_SCOPE : byCurrency ? `currency:${byCurrency}` : ""),
    /** The currency of every amount shown. */
    currency: account?.currency ?? (inBase ? base : null) ?? byCurrency ?? currencies[0] ?? null,
    /** The base currency when the amounts shown are converted to it. */
    inBase: inBase ? base : null,
    base,
    choose,
  };
}

/** The account select of a statistics page: per currency when the accounts use several, then each account. */
export function ScopeSelect({ accounts, currencies, value, onChange, base = null }: { accounts: readonly Account[]; currencies: string[]; value: string; onChange(value: string): void; base?: string | null }) {
  return (
    <SelectField label="Account" value={value} onChange={(e) => onChange(e.target.value)}>
      {base && <option value={BASE_SCOPE}>All accounts ({base})</option>}
      {currencies.length > 1 ? (
        currencies.map((c) => (
          <option key={c} value={`currency:${c}`}>
            All {c} accounts
          </option>
        ))
      ) : (
        <option value="">All accounts</option>
      )}
      {accounts.map((a) => (
        <option key={a.id} value={a.id}>
          {a.name} ({a.currency})
        </option>
      ))}
    </SelectField>
  );
}
