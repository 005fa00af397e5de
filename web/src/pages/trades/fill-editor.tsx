import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { FillPatchSchema } from "../../../../lib/trades/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { JournalImpact } from "../../components/journal-impact.tsx";
import { ErrorAlert, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { formatDateTime, formatNumber, symbolLabel } from "../../lib/format.ts";
import { isoToWall, wallToIso, zoneLabel } from "../../lib/zoned-input.ts";

export type EditableFill = {
  id: string;
  symbol: string;
  side: "buy" | "sell";
  quantity: string;
  price: string;
  fees: string;
  executedAt: string;
  /** "expiry": the journal closed an option still open after its expiry (docs/trading.md, "Option expiry and assignment"). */
  generated?: "expiry" | null;
};

/** Says that the journal, not the trader or the broker, wrote a fill. */
export function FillOrigin({ generated }: { generated?: "expiry" | null | undefined }) {
  if (generated !== "expiry") return null;
  return (
    <span className="badge" title="The option was still open after its expiry, so the journal closed it at 0. Your broker's own expiration, assignment or exercise rows replace it when you import them.">
      Expired · closed by the journal
    </span>
  );
}

/**
 * Everything a fill feeds: trades, fills, the ledger, balances, statistics, notes. `gone`: ids of what the change
 * removed (a deleted fill; the trade a page was showing, rebuilt under a new id): the queries that name one are
 * not asked for again (each would be a 404), and go with the components that held them.
 */
export async function invalidateAfterFillChange(queryClient: ReturnType<typeof useQueryClient>, gone: readonly string[] = []) {
  const names = (q: { queryKey: QueryKey }) => gone.some((id) => JSON.stringify(q.queryKey).includes(id));
  await Promise.all(
    ["trades", "fills", "ledger", "stats", "accounts", "journals"].map((k) => queryClient.invalidateQueries({ queryKey: [k], predicate: (q) => !names(q) })),
  );
}

/**
 * What a page showing the fill's trade does after a change, before anything is fetched again: takes the page where
 * the trade went, and answers the ids the change removed (the trade, when it was rebuilt under a new id).
 */
export type FollowFill = (fillId: string, deleted: boolean) => Promise<string[]>;

const trimZeros = (v: string) => (v.includes(".") ? v.replace(/0+$/, "").replace(/\.$/, "") : v);

/** Corrects one fill: side, quantity, price, fees and time (on the account's clock). Only what changed is sent. */
export function FillEditor({ fill, zone, follow, onDone }: { fill: EditableFill; zone: string; follow?: FollowFill; onDone(message: string): void }) {
  const queryClient = useQueryClient();
  const [side, setSide] = useState(fill.side);
  const [quantity, setQuantity] = useState(trimZeros(fill.quantity));
  const [price, setPrice] = useState(trimZeros(fill.price));
  const [fees, setFees] = useState(trimZeros(fill.fees));
  const [when, setWhen] = useState(isoToWall(fill.executedAt, zone));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (json: Record<string, string>) => unwrap(api.api.fills[":id"].$patch({ param: { id: fill.id }, json })),
    onSuccess: async () => {
      await invalidateAfterFillChange(queryClient, (await follow?.(fill.id, false)) ?? []);
      onDone("Fill corrected. Its trade was rebuilt; your notes followed it.");
    },
  });
  const shown = { ...serverFieldErrors(save.error), ...errors };

  function submit(e: FormEvent) {
    e.preventDefault();
    const at = wallToIso(when, zone);
    const patch: Record<string, string> = {};
    if (side !== fill.side) patch.side = side;
    if (quantity.trim() !== trimZeros(fill.quantity)) patch.quantity = quantity.trim();
    if (price.trim() !== trimZeros(fill.price)) patch.price = price.trim();
    if (fees.trim() !== trimZeros(fill.fees)) patch.fees = fees.trim() || "0";
    // Untouched, the field shows the fill's time to the second: only a changed time is sent (its milliseconds kept otherwise).
    if (at && when !== isoToWall(fill.executedAt, zone)) patch.executedAt = at;
    const found = schemaErrors(FillPatchSchema, patch);
    if (!at) found.executedAt = "must be a date and time";
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(e.currentTarget as HTMLFormElement);
    if (Object.keys(patch).length === 0) return onDone("Nothing changed.");
    save.mutate(patch);
  }

  return (
    <form className="form panel" onSubmit={submit} noValidate aria-label={`Correct the ${fill.side} of ${formatNumber(fill.quantity)} ${symbolLabel(fill.symbol)}`}>
      <h3>Correct this fill</h3>
      {fill.generated === "expiry" && <p className="muted">The journal wrote this fill at the option&apos;s expiry. Once you save it, it is yours and stays as you set it.</p>}
      <ErrorAlert error={save.error} title="Could not correct the fill." />
      <div className="grid-2">
        <SelectField label="Side" value={side} onChange={(e) => setSide(e.target.value as "buy" | "sell")} error={shown.side}>
          <option value="buy">Buy</option>
          <option value="sell">Sell</option>
        </SelectField>
        <TextField label="Quantity" inputMode="decimal" value={quantity} onChange={(e) => setQuantity(e.target.value)} error={shown.quantity} />
        <TextField label="Price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} error={shown.price} />
        <TextField label="Fees" inputMode="decimal" value={fees} onChange={(e) => setFees(e.target.value)} error={shown.fees} />
        <TextField
          label="Executed at"
          type="datetime-local"
          step={1}
          value={when}
          onChange={(e) => setWhen(e.target.value)}
          error={shown.executedAt}
          hint={`${zoneLabel(zone)}: the account's time zone.`}
        />
      </div>
      <StatusMessage>{save.isPending ? "Saving…" : ""}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={save.isPending}>
          Save fill
        </button>
        <button type="button" className="button button--secondary" onClick={() => onDone("")}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Deletes one fill after saying what it was and what becomes of the notes on its trade. */
export function FillDeleteConfirm({ fill, zone, follow, onDone }: { fill: EditableFill; zone: string; follow?: FollowFill; onDone(message: string, deleted: boolean): void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.api.fills[":id"].$delete({ param: { id: fill.id } })),
    onSuccess: async () => {
      await invalidateAfterFillChange(queryClient, [fill.id, ...((await follow?.(fill.id, true)) ?? [])]);
      onDone("Fill deleted, with its ledger entry.", true);
    },
  });
  const what = `${fill.side === "buy" ? "Buy" : "Sell"} ${formatNumber(fill.quantity)} ${symbolLabel(fill.symbol)} at ${trimZeros(fill.price)}, ${formatDateTime(fill.executedAt, zone)}`;
  return (
    <div className="confirm panel" role="alertdialog" aria-label="Delete this fill?">
      <h3>Delete this fill?</h3>
      <p>{what}. Its ledger entry goes with it and its trade is rebuilt.</p>
      {fill.generated === "expiry" && (
        <p>The journal wrote this fill to close the option at its expiry. Deleting it keeps the option open: the journal will not close it again.</p>
      )}
      <JournalImpact subject={{ fillId: fill.id }} fate="kept" />
      <ErrorAlert error={remove.error} title="Could not delete the fill." />
      <div className="button-row">
        <button type="button" className="button button--danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
          {remove.isPending ? "Deleting…" : "Yes, delete fill"}
        </button>
        <button type="button" className="button button--secondary" disabled={remove.isPending} onClick={() => onDone("", false)}>
          Keep it
        </button>
      </div>
    </div>
  );
}

export type FillAction = { fill: EditableFill; mode: "edit" | "delete" };

/** What a page with fills needs to offer Edit and Delete: the open action, the last outcome, and both handlers. */
export function useFillActions() {
  const [action, setAction] = useState<FillAction | null>(null);
  const [done, setDone] = useState("");
  return {
    action,
    done,
    open: (next: FillAction) => {
      setDone("");
      setAction(next);
    },
    finish: (message: string) => {
      setAction(null);
      setDone(message);
    },
  };
}

/** A fill's Edit and Delete buttons (a table cell), named for a screen reader by what the fill was (`label`). */
export function FillActionsCell({ fill, label, onOpen }: { fill: EditableFill; label: string; onOpen(action: FillAction): void }) {
  return (
    <td data-label="Actions" className="nowrap">
      <button type="button" className="button button--secondary button--small" aria-label={`Correct the ${label}`} onClick={() => onOpen({ fill, mode: "edit" })}>
        Edit
      </button>{" "}
      <button type="button" className="button button--secondary button--small" aria-label={`Delete the ${label}`} onClick={() => onOpen({ fill, mode: "delete" })}>
        Delete
      </button>
    </td>
  );
}

/** The editor or the delete confirmation the open action asks for, and the last outcome. */
export function FillActionPanel({ actions, zone, follow }: { actions: ReturnType<typeof useFillActions>; zone: string; follow?: FollowFill }) {
  const { action, done, finish } = actions;
  return (
    <>
      <StatusMessage>{done}</StatusMessage>
      {action?.mode === "edit" && <FillEditor key={action.fill.id} fill={action.fill} zone={zone} follow={follow} onDone={finish} />}
      {action?.mode === "delete" && <FillDeleteConfirm key={action.fill.id} fill={action.fill} zone={zone} follow={follow} onDone={finish} />}
    </>
  );
}
