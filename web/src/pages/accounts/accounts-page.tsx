import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useAccounts } from "../../api/queries.ts";
import { EmptyState, PageHeader, QueryView } from "../../components/ui.tsx";
import { formatMoney } from "../../lib/format.ts";
import { NewAccountForm } from "./account-form.tsx";

export function AccountsPage() {
  const accounts = useAccounts();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const hasAccounts = (accounts.data?.accounts.length ?? 0) > 0;

  const form = (
    <section className="panel" aria-labelledby="new-account-title">
      <h2 id="new-account-title">New account</h2>
      <NewAccountForm onCreated={(a) => void navigate(`/accounts/${a.id}`)} />
    </section>
  );

  return (
    <>
      <PageHeader title="Accounts">
        {hasAccounts && !creating && (
          <button type="button" className="button" onClick={() => setCreating(true)}>
            New account
          </button>
        )}
      </PageHeader>
      <QueryView query={accounts} label="your accounts">
        {({ accounts: list }) =>
          list.length === 0 ? (
            <>
              <EmptyState title="Create your first account">
                <p>An account holds one brokerage account's cash ledger and trades. Start with its name, currency and starting balance.</p>
              </EmptyState>
              {form}
            </>
          ) : (
            <>
              {creating && form}
              <ul className="account-list">
                {list.map((a) => (
                  <li key={a.id}>
                    <div>
                      <Link to={`/accounts/${a.id}`}>{a.name}</Link>
                      <div className="muted">
                        {a.currency} · {a.timezone}
                      </div>
                    </div>
                    <div className="num">
                      <span className="visually-hidden">Balance </span>
                      <strong>{formatMoney(a.balance, a.currency)}</strong>
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )
        }
      </QueryView>
    </>
  );
}
