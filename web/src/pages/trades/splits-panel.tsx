// A stock's splits on its trade page (docs/trading.md, "Stock splits"): the ones recorded for the symbol, a
// form to record one (ex-date, new and old shares) and a button to remove each. Recording or removing a
// split rebuilds the symbol's trades in every account, so the trades are fetched again (this page's trade
// may be replaced: its journal leads to the new one).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { NewSplitSchema } from "../../../../lib/trades/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { ErrorAlert, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";

const SPLIT_ZONE = "America/New_York";

export function SplitsPanel({ symbol }: { symbol: string }) {
  const queryClient = useQueryClient();
  const splitsKey = ["splits", symbol] as const;
  const splits = useQuery({ queryKey: splitsKey, queryFn: () => unwrap(api.api.splits.$get({ query: { symbol } })) });
  const [date, setDate] = useState("");
  const [newShares, setNewShares] = useState("");
  const [oldShares, setOldShares] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState("");
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ["splits"] });
    await queryClient.invalidateQueries({ queryKey: keys.trades });
  };
  const add = useMutation({
    mutationFn: (json: { symbol: string; date: string; newShares: string; oldShares: string }) => unwrap(api.api.splits.$post({ json })),
    onSuccess: async (split) => {
      setDate("");
      setNewShares("");
      setOldShares("");
      setStatus(`Split recorded: ${formatNumber(split.newShares)} for ${formatNumber(split.oldShares)}. Your ${symbol} trades were rebuilt.`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.api.splits[":id"].$delete({ param: { id } })),
    onSuccess: async () => {
      setStatus(`Split removed. Your ${symbol} trades were rebuilt.`);
      await refresh();
    },
  });
  const shown = { ...serverFieldErrors(add.error), ...errors };

  function submit(e: FormEvent) {
    e.preventDefault();
    setStatus("");
    const value = { symbol, date, newShares: newShares.trim(), oldShares: oldShares.trim() };
    const found = schemaErrors(NewSplitSchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) add.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  const list = splits.data?.splits ?? [];
  return (
    <section className="panel" aria-labelledby="splits-title">
      <h2 id="splits-title">Stock splits of {symbol}</h2>
      <p className="muted">
        A split changes the share count without moving cash. Recorded here, fills before it count in today&apos;s shares and prices in all your
        accounts, so a position held through it closes flat. Your cash is not touched.
      </p>
      {list.length > 0 && (
        <ul className="plain-list" aria-label={`Splits of ${symbol}`}>
          {list.map((s) => (
            <li key={s.id}>
              {formatNumber(s.newShares)}-for-{formatNumber(s.oldShares)} from {formatDateTime(s.effectiveAt, SPLIT_ZONE)} (New York)
              <button type="button" className="button button--secondary button--small" onClick={() => remove.mutate(s.id)} disabled={remove.isPending}>
                Remove<span className="visually-hidden"> the {formatNumber(s.newShares)}-for-{formatNumber(s.oldShares)} split</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorAlert error={remove.error} title="Could not remove the split." />
      <details open={list.length === 0 ? undefined : false}>
        <summary>Record a split</summary>
        <form className="form" onSubmit={submit} noValidate aria-label={`Record a split of ${symbol}`}>
          <ErrorAlert error={add.error} title="Could not record the split." />
          <div className="grid-3">
            <TextField label="Ex-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={shown.date} hint="The first day on the new share count." />
            <TextField label="New shares" inputMode="decimal" value={newShares} onChange={(e) => setNewShares(e.target.value)} error={shown.newShares} hint="2 in a 2-for-1 split." />
            <TextField label="Old shares" inputMode="decimal" value={oldShares} onChange={(e) => setOldShares(e.target.value)} error={shown.oldShares} hint="10 in a 1-for-10 reverse split." />
          </div>
          <div className="button-row">
            <button type="submit" className="button" disabled={add.isPending}>
              Record split
            </button>
          </div>
        </form>
      </details>
      <StatusMessage>{add.isPending || remove.isPending ? "Rebuilding trades…" : status}</StatusMessage>
    </section>
  );
}
