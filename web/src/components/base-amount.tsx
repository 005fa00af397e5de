// A trade's net P&L in the user's base currency (docs/currencies.md), beside its own: the rate and its date on
// hover, or why there is none.
import { formatPnl } from "../lib/format.ts";

export type BaseFigure = { currency: string; netPnl: string | null; rate: string | null; rateDate: string | null };

export function BaseAmount({ base, currency }: { base: BaseFigure | undefined; currency: string }) {
  if (!base || base.currency === currency) return null;
  if (base.netPnl === null) {
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
      ≈ {formatPnl(base.netPnl, base.currency)}
    </span>
  );
}
