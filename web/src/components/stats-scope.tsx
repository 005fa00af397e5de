// The scope of a statistics page (the dashboard, the playbook report), kept in the URL: one account, every
// account, or every account of one currency (amounts are never added across currencies).
import { useSearchParams } from "react-router";
import type { Account } from "../api/queries.ts";
import { useAccountParam } from "../pages/import/accounts.ts";
import { SelectField } from "./ui.tsx";

/** One account, or every account of one currency. */
export type Filter = { accountId?: string; currency?: string };

/**
 * What a statistics page covers, kept in the URL: `?account=` one account, else every account, or (when the
 * accounts use several currencies) every account of `?currency=` (the first account's currency by default).
 * The select's value is an account id, "" for all accounts, or "currency:XXX".
 */
export function useStatsScope(accounts: readonly Account[]) {
  const [params, setParams] = useSearchParams();
  const { accountId, account } = useAccountParam(accounts, true);
  const currencies = [...new Set(accounts.map((a) => a.currency))].sort();
  const asked = params.get("currency")?.toUpperCase() ?? "";
  const byCurrency = !account && currencies.length > 1 ? (currencies.includes(asked) ? asked : accounts[0]!.currency) : undefined;
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
    filter: (accountId ? { accountId } : byCurrency ? { currency: byCurrency } : {}) as Filter,
    value: accountId || (byCurrency ? `currency:${byCurrency}` : ""),
    /** The currency of every amount shown. */
    currency: account?.currency ?? byCurrency ?? currencies[0] ?? null,
    choose,
  };
}

/** The account select of a statistics page: per currency when the accounts use several, then each account. */
export function ScopeSelect({ accounts, currencies, value, onChange }: { accounts: readonly Account[]; currencies: string[]; value: string; onChange(value: string): void }) {
  return (
    <SelectField label="Account" value={value} onChange={(e) => onChange(e.target.value)}>
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
