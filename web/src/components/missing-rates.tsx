// The rates a figure in the base needed and the instance lacks (docs/currencies.md), named above the figure.
import { Link } from "react-router";

/** The rates a figure in the base needed and the instance lacks (docs/currencies.md): those amounts are left out. */
export function MissingRates({ missing }: { missing: ReadonlyArray<{ currency: string; date: string }> }) {
  const shown = missing.slice(0, 5).map((m) => `${m.currency} on ${m.date}`).join(", ");
  return (
    <p className="notice" role="status">
      {missing.length === 1 ? "A rate is" : `${missing.length} rates are`} missing ({shown}
      {missing.length > 5 ? ", ..." : ""}): the amounts of those days are left out, never converted at a guess. Set your own rate in{" "}
      <Link to="/settings/currency">Settings, Currency</Link>.
    </p>
  );
}
