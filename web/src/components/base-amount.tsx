// A trade's net P&L or a ledger entry's amount in the user's base currency (docs/currencies.md), beside its
// own: the rate and its date on hover, or why there is none.
import { formatMoney, formatPnl } from "../lib/format.ts";

type Rated = { currency: string; rate: string | null; rateDate: string | null };
export type BaseFigure = Rated & ({ netPnl: string | null } | { amount: string | null });

export function BaseAmount({ base, currency }: { base: BaseFigure | undefined; currency: string }) {
  if (!base || base.currency === currency) return null;
  const value = "netPnl" in base ? base.netPnl : base.amount;
  if (value === null) {
    return (
      <span className="base-amount muted" title={`No ${currency} rate to ${base.currency} for this date: set your own in Settings, Currency.`}>
        {" "}
        ({base.currency} rate missing)
      </span>
    );
  }
  return (
    <span className="base-amount muted" title={`Converted at ${base.rate} ${currency} per 1 ${base.currency}, the rate of ${base.rateDate}.`}>
      {" "}
      ≈ {"netPnl" in base ? formatPnl(value, base.currency) : formatMoney(value, base.currency)}
    </span>
  );
}
