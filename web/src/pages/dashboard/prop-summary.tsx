// The dashboard's "Path to funding" (docs/prop-firms.md): each account under a prop firm's rules with its state,
// its distance to the floor and to the target, and what the firms cost and paid, per currency. Shown only to a
// trader with an evaluation or a firm's fee or payout.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { formatMoney, formatPnl } from "../../lib/format.ts";

const STATES = { active: "Active", passed: "Passed", breached: "Breached" } as const;

export function PropSummary() {
  const summary = useQuery({ queryKey: ["prop-firms", "summary"], queryFn: () => unwrap(api.api["prop-firms"].summary.$get()) });
  const data = summary.data;
  if (!data || data.accounts.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="prop-summary-heading">
      <h2 id="prop-summary-heading">Path to funding</h2>
      <ul className="plain-list">
        {data.accounts
          .filter((a) => a.state !== null)
          .map((a) => (
            <li key={a.accountId}>
              <Link to={`/accounts/${a.accountId}`}>{a.name}</Link> ({a.firm}): <span className={`badge badge--${a.state}`}>{STATES[a.state!]}</span>
              {a.state === "active" && a.distanceToFloor !== null && (
                <span>
                  {" "}
                  {formatPnl(a.distanceToFloor, a.currency)} above the floor{a.profitToTarget !== null && `, ${formatMoney(a.profitToTarget, a.currency)} to the target`}
                </span>
              )}
            </li>
          ))}
      </ul>
      {data.totals.map((t) => (
        <p key={t.currency} className="muted">
          In {t.currency}, over {t.accounts} {t.accounts === 1 ? "account" : "accounts"}: {formatMoney(t.feesPaid, t.currency)} in fees, {formatMoney(t.payoutsReceived, t.currency)} in payouts, net{" "}
          {formatPnl(t.netCash, t.currency)}
          {t.roi !== null && ` (${(Number(t.roi) * 100).toFixed(1)}% on the fees)`}.
        </p>
      ))}
    </section>
  );
}
