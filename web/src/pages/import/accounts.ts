// The account chosen on the import wizard and the dashboard (the list itself is useAccounts in
// api/queries.ts, shared with the accounts screens).
import { useSearchParams } from "react-router";
import type { Account } from "../../api/queries.ts";

/**
 * The account chosen in the page's `?account=` search parameter, so a reload or a shared link keeps it.
 * `allowAll` lets the empty value stand for every account (the dashboard); otherwise it falls back to the
 * first account.
 */
export function useAccountParam(accounts: readonly Account[] | undefined, allowAll = false) {
  const [params, setParams] = useSearchParams();
  const raw = params.get("account") ?? "";
  const known = accounts?.find((a) => a.id === raw);
  const accountId = known ? known.id : allowAll ? "" : (accounts?.[0]?.id ?? "");
  const setAccountId = (id: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set("account", id);
        else next.delete("account");
        return next;
      },
      { replace: true },
    );
  return { accountId, account: accounts?.find((a) => a.id === accountId), setAccountId };
}
