import { formatMoney } from "../lib/format.ts";

/** A fill's fees, with "est." when they are the account's fee schedule's estimate (the imported row had none). */
export function Fees({ value, estimated, currency }: { value: string; estimated?: boolean | undefined; currency: string | null }) {
  return (
    <>
      {formatMoney(value, currency)}
      {estimated && (
        <>
          {" "}
          <abbr className="muted" title="Estimated from the account's fee schedule: the imported row carried no fee">
            est.
          </abbr>
        </>
      )}
    </>
  );
}
