// The account list for the import wizard and the dashboard. Same key as the accounts screens, so a change
// there (or an import's new balance) refreshes it here too.
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";

function fetchAccounts() {
  return unwrap(api.api.accounts.$get());
}

export type AccountItem = Awaited<ReturnType<typeof fetchAccounts>>["accounts"][number];

export function useAccountList() {
  return useQuery({ queryKey: ["accounts"], queryFn: fetchAccounts });
}

/**
 * The account chosen in the page's `?account=` search parameter, so a reload or a shared link keeps it.
 * `allowAll` lets the empty value stand for every account (the dashboard); otherwise it falls back to the
 * first account.
 */
export function useAccountParam(accounts: readonly AccountItem[] | undefined, allowAll = false) {
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
