import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { NewFillSchema } from "../../../../lib/trades/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts } from "../../api/queries.ts";
import { SymbolField } from "../../components/symbol-field.tsx";
import { EmptyState, ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";

type AssetClass = "" | "stock" | "option" | "future";

/** Now, as a datetime-local value on the reader's clock (minutes precision). */
function nowLocal(): string {
  const d = new Date();
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
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
  const [executedAt, setExecutedAt] = useState(nowLocal);
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

  function submit(e: FormEvent) {
    e.preventDefault();
    const at = new Date(executedAt);
    const value = {
      accountId: chosen,
      symbol: symbol.trim().toUpperCase(),
      side,
      quantity: quantity.trim(),
      price: price.trim(),
      ...(fees.trim() ? { fees: fees.trim() } : {}),
      executedAt: Number.isNaN(at.getTime()) ? "" : at.toISOString(),
      ...(assetClass ? { assetClass } : {}),
      ...(multiplier.trim() ? { multiplier: multiplier.trim() } : {}),
      ...(executionId.trim() ? { executionId: executionId.trim() } : {}),
    };
    const found = schemaErrors(NewFillSchema, value);
    if (!chosen) found.accountId = "is required";
    if (!value.symbol) found.symbol = "is required";
    if (!value.quantity) found.quantity = "is required";
    if (!value.price) found.price = "is required";
    if (!executedAt || Number.isNaN(at.getTime())) found.executedAt = "is required";
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
                    value={executedAt}
                    onChange={(e) => setExecutedAt(e.target.value)}
                    error={shown.executedAt}
                    hint="Your local time."
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
