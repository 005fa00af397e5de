// The dashboard's wash-sale watch (docs/tax.md, "Wash watch"; US taxes): the USD losses of the last 30 days that
// buying the same symbol would still wash, and until when. Shown only when there are some; a trader with no USD
// account, or whose accounts the watch cannot read as one currency, sees nothing.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { formatMoney } from "../../lib/format.ts";

export function WashWatch() {
  const watch = useQuery({ queryKey: ["tax", "wash-watch", "USD"], queryFn: () => unwrap(api.api.tax["wash-watch"].$get({ query: { currency: "USD" } })),
    retry: false,
    // The watch reads the tax year (docs/tax.md, "Benchmark"): asked again at most every 10 minutes.
    staleTime: 10 * 60_000,
  });
  const losses = watch.data?.losses ?? [];
  if (losses.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="wash-watch-heading">
      <h2 id="wash-watch-heading">Wash-sale watch</h2>
      <p className="muted">US taxes: buying one of these symbols again on or before its date would wash the loss (it moves into the new shares' basis).</p>
      <ul className="plain-list">
        {losses.map((l) => (
          <li key={`${l.accountId}-${l.symbol}-${l.soldAt}`}>
            <strong>{l.symbol}</strong>: {formatMoney(l.loss, "USD")} lost on {l.soldAt}, washable until {l.washableUntil}
          </li>
        ))}
      </ul>
      <p>
        <Link to="/tax">The tax year</Link>
      </p>
    </section>
  );
}
