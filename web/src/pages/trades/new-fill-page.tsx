import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { NewFillSchema } from "../../../../lib/trades/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts } from "../../api/queries.ts";
import { SymbolField } from "../../components/symbol-field.tsx";
import { EmptyState, ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { isoToWall, wallToIso, zoneLabel } from "../../lib/zoned-input.ts";

type AssetClass = "" | "stock" | "option" | "future";

/** Now on `zone`'s clock, as a datetime-local value (minutes precision). */
function nowIn(zone: string): string {
  return isoToWall(new Date(), zone).slice(0, 16);
}

export function NewFillPage() {
  const [params] = useSearchParams();
  const accounts = useAccounts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [accountId, setAccountId] = useState(params.get("accountId") ?? "");
  const [symbol, setSymbol] = useState("");
  const [side, setSide] = useState<"buy" | "sell">("buy");
  const [quantity, setQuantity] = useState("");
  const [price, setPrice] = useState("");
  const [fees, setFees] = useState("");
  // Typed on the account's clock; until the trader types, now on that clock.
  const [typedAt, setExecutedAt] = useState<string | null>(null);
  const [assetClass, setAssetClass] = useState<AssetClass>("");
  const [multiplier, setMultiplier] = useState("");
  const [executionId, setExecutionId] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutation({
    mutationFn: (json: Parameters<typeof api.api.fills.$post>[0]["json"]) => unwrap(api.api.fills.$post({ json })),
    onSuccess: async (fill) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.trades }),
        queryClient.invalidateQueries({ queryKey: keys.ledgerOf(fill.accountId) }),
        queryClient.invalidateQueries({ queryKey: keys.accounts }),
      ]);
      void navigate(`/trades?accountId=${fill.accountId}&symbol=${encodeURIComponent(fill.symbol)}`);
    },
  });
  const shown = { ...serverFieldErrors(add.error, { CONFLICT: ["executionId", "is already recorded in this account"] }), ...errors };
  const list = accounts.data?.accounts ?? [];
  const chosen = accountId || (list.length === 1 ? list[0]!.id : "");
  const zone = list.find((a) => a.id === chosen)?.timezone;
  const executedAt = typedAt ?? (zone ? nowIn(zone) : "");

  function submit(e: FormEvent) {
    e.preventDefault();
    const at = zone ? wallToIso(executedAt, zone) : undefined;
    const value = {
      accountId: chosen,
      symbol: symbol.trim().toUpperCase(),
      side,
      quantity: quantity.trim(),
      price: price.trim(),
      ...(fees.trim() ? { fees: fees.trim() } : {}),
      executedAt: at ?? "",
      ...(assetClass ? { assetClass } : {}),
      ...(multiplier.trim() ? { multiplier: multiplier.trim() } : {}),
      ...(executionId.trim() ? { executionId: executionId.trim() } : {}),
    };
    const found = schemaErrors(NewFillSchema, value);
    if (!chosen) found.accountId = "is required";
    if (!value.symbol) found.symbol = "is required";
    if (!value.quantity) found.quantity = "is required";
    if (!value.price) found.price = "is required";
    if (chosen && (!executedAt || !at)) found.executedAt = "is required";
    setErrors(found);
    if (Object.keys(found).length === 0) add.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  return (
    <>
      <p className="breadcrumb">
        <Link to="/trades">Trades</Link> / Add a fill
      </p>
      <PageHeader title="Add a fill" />
      <QueryView query={accounts} label="your accounts">
        {({ accounts: all }) =>
          all.length === 0 ? (
            <EmptyState title="Create your first account" action={<Link className="button" to="/accounts">Create an account</Link>}>
              <p>A fill is recorded in an account. Create one first.</p>
            </EmptyState>
          ) : (
            <section className="panel">
              <p>One execution from your broker: a buy or a sell. Fills are grouped into trades automatically.</p>
              <form className="form" onSubmit={submit} noValidate aria-label="New fill">
                <ErrorAlert error={add.error} title="Could not add the fill." />
                <div className="grid-2">
                  <SelectField label="Account" value={chosen} onChange={(e) => setAccountId(e.target.value)} error={shown.accountId} required>
                    <option value="">Choose an account</option>
                    {all.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.name} ({a.currency})
                      </option>
                    ))}
                  </SelectField>
                  <SymbolField
                    label="Symbol"
                    value={symbol}
                    maxLength={40}
                    onChange={setSymbol}
                    error={shown.symbol}
                    hint="A stock ticker (AAPL), an OCC option symbol or a futures contract (ESZ24)."
                    required
                  />
                  <SelectField label="Side" value={side} onChange={(e) => setSide(e.target.value as "buy" | "sell")} error={shown.side}>
                    <option value="buy">Buy</option>
                    <option value="sell">Sell</option>
                  </SelectField>
                  <TextField
                    label="Quantity"
                    inputMode="decimal"
                    value={quantity}
                    onChange={(e) => setQuantity(e.target.value)}
                    error={shown.quantity}
                    required
                  />
                  <TextField label="Price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} error={shown.price} required />
                  <TextField
                    label="Fees"
                    inputMode="decimal"
                    value={fees}
                    placeholder="0.00"
                    onChange={(e) => setFees(e.target.value)}
                    error={shown.fees}
                    hint="Commissions and fees, as a positive amount. Optional."
                  />
                  <TextField
                    label="Executed at"
                    type="datetime-local"
                    step={1}
                    value={executedAt}
                    onChange={(e) => setExecutedAt(e.target.value)}
                    error={shown.executedAt}
                    hint={zone ? `${zoneLabel(zone)}: the account's time zone.` : "Read in the account's time zone: choose the account first."}
                    required
                  />
                  <TextField
                    label="Execution ID"
                    value={executionId}
                    maxLength={100}
                    onChange={(e) => setExecutionId(e.target.value)}
                    error={shown.executionId}
                    hint="The broker's id for this execution, if you have it. Optional."
                  />
                </div>
                <details>
                  <summary>Asset class and multiplier</summary>
                  <div className="grid-2" style={{ marginTop: "0.75rem" }}>
                    <SelectField
                      label="Asset class"
                      value={assetClass}
                      onChange={(e) => setAssetClass(e.target.value as AssetClass)}
                      error={shown.assetClass}
                      hint="Detected from the symbol when left on automatic."
                    >
                      <option value="">Automatic</option>
                      <option value="stock">Stock</option>
                      <option value="option">Option</option>
                      <option value="future">Future</option>
                    </SelectField>
                    <TextField
                      label="Multiplier"
                      inputMode="decimal"
                      value={multiplier}
                      onChange={(e) => setMultiplier(e.target.value)}
                      error={shown.multiplier}
                      hint="Only for contracts the app does not know."
                    />
                  </div>
                </details>
                <StatusMessage>{add.isPending ? "Adding the fill…" : ""}</StatusMessage>
                <div className="button-row">
                  <button type="submit" className="button" disabled={add.isPending}>
                    Add fill
                  </button>
                </div>
              </form>
            </section>
          )
        }
      </QueryView>
    </>
  );
}
