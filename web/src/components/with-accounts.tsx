// The pages that read from the trader's accounts: the accounts loaded, or a first step to create one.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useAccounts, type Account } from "../api/queries.ts";
import { EmptyState, QueryView } from "./ui.tsx";

/** `children` with the accounts, once loaded; without any, a prompt to create one saying why (`why`). */
export function WithAccounts({ why, children }: { why: string; children: (accounts: readonly Account[]) => ReactNode }) {
  const accounts = useAccounts();
  return (
    <QueryView query={accounts} label="accounts">
      {({ accounts: list }) =>
        list.length === 0 ? (
          <EmptyState title="Create an account first" action={<Link to="/accounts" className="button">Go to accounts</Link>}>
            <p>{why}</p>
          </EmptyState>
        ) : (
          children(list)
        )
      }
    </QueryView>
  );
}
