// "Share this trade" on the trade page (docs/sharing.md): a public link that shows what is ticked and nothing
// else; amounts are left out unless chosen (R and percentages only). The link is shown once, to copy.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { ErrorAlert, TextField } from "../../components/ui.tsx";

const CHOICES = [
  ["money", "Amounts (P&L, fees, quantities)"],
  ["notes", "Notes, tags and setup"],
  ["images", "Screenshots"],
  ["chart", "The chart"],
] as const;

type Show = Record<(typeof CHOICES)[number][0], boolean>;

export function ShareTrade({ tradeId }: { tradeId: string }) {
  const [show, setShow] = useState<Show>({ money: false, notes: false, images: false, chart: true });
  const [days, setDays] = useState("30");
  const [copied, setCopied] = useState(false);
  // The form is drawn when the panel is opened: closed, none of its fields is on the page.
  const [open, setOpen] = useState(false);
  const make = useMutation({
    mutationFn: () => unwrap(api.api.shares.$post({ json: { kind: "trade", tradeId, show, expiresInDays: Number(days) } })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCopied(false);
    make.mutate();
  };
  const errors = serverFieldErrors(make.error);
  const url = make.data ? new URL(make.data.url || `/s/${make.data.token}`, window.location.origin).href : null;
  return (
    <details className="panel share-trade" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Share this trade</summary>
      {open && (
        <form onSubmit={submit} noValidate>
          <fieldset>
            <legend>Show</legend>
            {CHOICES.map(([key, label]) => (
              <label key={key} className="checkbox">
                <input type="checkbox" checked={show[key]} onChange={(e) => setShow((s) => ({ ...s, [key]: e.target.checked }))} /> {label}
              </label>
            ))}
            <p className="muted">Without amounts the page shows R and percentages only. Your account, balance and email are never shown.</p>
          </fieldset>
          <TextField label="Link works for (days)" type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} error={errors.expiresInDays} />
          <ErrorAlert error={errors.expiresInDays ? null : make.error} title="Could not make the link." />
          <button type="submit" className="button" disabled={make.isPending}>
            {make.isPending ? "Making the link…" : "Make a link"}
          </button>
        </form>
      )}
      {open && url && (
        <div className="share-trade__link" role="status">
          <TextField label="Anyone with this link can see the page (shown once)" readOnly value={url} onFocus={(e) => e.target.select()} />
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void navigator.clipboard?.writeText(url).then(() => setCopied(true), () => setCopied(false))}
          >
            {copied ? "Copied" : "Copy"}
          </button>{" "}
          <Link to="/settings/sharing">Your links</Link>
        </div>
      )}
    </details>
  );
}
