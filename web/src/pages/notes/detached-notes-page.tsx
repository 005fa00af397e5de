// Detached notes: what a trader wrote on trades whose fills are gone (deleted, or their import undone). Kept
// until the same fills return (then they go back on their trade by themselves), the trader puts them on a
// trade, or deletes them. Nothing here is ever removed but by the trader.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useAccounts, type Account } from "../../api/queries.ts";
import { EmptyState, ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage } from "../../components/ui.tsx";
import { signOf } from "../../lib/decimal.ts";
import { formatDateTime, formatPnl, symbolLabel } from "../../lib/format.ts";

export const detachedKey = ["journals", "detached"] as const;

function fetchDetached() {
  return unwrap(api.api.journals.detached.$get({ query: {} }));
}

type Note = Awaited<ReturnType<typeof fetchDetached>>["journals"][number];

/** How many notes wait detached (the trades page says so when there are some). */
export function useDetachedNotes() {
  return useQuery({ queryKey: detachedKey, queryFn: fetchDetached });
}

function AttachForm({ note, zone, onDone }: { note: Note; zone: string | undefined; onDone(message: string): void }) {
  const queryClient = useQueryClient();
  const [allSymbols, setAllSymbols] = useState(false);
  const [tradeId, setTradeId] = useState("");
  const trades = useQuery({
    queryKey: ["trades", "list", { accountId: note.accountId, symbol: allSymbols ? undefined : note.symbol, attach: true }],
    queryFn: () =>
      unwrap(api.api.trades.$get({ query: { accountId: note.accountId, page: "1", pageSize: "200", ...(allSymbols ? {} : { symbol: note.symbol }) } })),
  });
  const attach = useMutation({
    mutationFn: () => unwrap(api.api.journals[":id"].attach.$post({ param: { id: note.id }, json: { tradeId } })),
    onSuccess: async (r) => {
      await Promise.all(["journals", "trades"].map((k) => queryClient.invalidateQueries({ queryKey: [k] })));
      onDone(r.outcome === "merged" ? "The note was added to the notes that trade already had." : "The note is on the trade now.");
    },
  });
  const list = trades.data?.trades ?? [];
  return (
    <form
      className="form form--inline"
      aria-label={`Attach the ${symbolLabel(note.symbol)} note to a trade`}
      onSubmit={(e) => {
        e.preventDefault();
        if (tradeId) attach.mutate();
      }}
    >
      <ErrorAlert error={attach.error} title="Could not attach the note." />
      <SelectField
        label="Trade"
        value={tradeId}
        onChange={(e) => setTradeId(e.target.value)}
        hint={list.length === 0 && !trades.isPending ? `No ${allSymbols ? "" : `${symbolLabel(note.symbol)} `}trade in this account yet.` : "A trade that already has notes gets these added to them."}
      >
        <option value="">Choose a trade</option>
        {list.map((t) => (
          <option key={t.id} value={t.id}>
            {symbolLabel(t.symbol)} {t.direction}, opened {formatDateTime(t.openedAt, zone)}
            {t.journalId ? " (has notes)" : ""}
          </option>
        ))}
      </SelectField>
      <label className="checkbox">
        <input type="checkbox" checked={allSymbols} onChange={(e) => setAllSymbols(e.target.checked)} /> Every symbol
      </label>
      <div className="button-row">
        <button type="submit" className="button" disabled={!tradeId || attach.isPending}>
          {attach.isPending ? "Attaching…" : "Attach"}
        </button>
        <button type="button" className="button button--secondary" onClick={() => onDone("")}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function NoteCard({ note, account }: { note: Note; account: Account | undefined }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"idle" | "attach" | "delete">("idle");
  const [status, setStatus] = useState("");
  const remove = useMutation({
    mutationFn: () => unwrap(api.api.journals[":id"].$delete({ param: { id: note.id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["journals"] }),
  });
  const zone = account?.timezone;
  const tone = note.netPnl ? signOf(note.netPnl) : 0;
  return (
    <article className="panel note" id={`note-${note.id}`} aria-labelledby={`note-title-${note.id}`}>
      <h2 id={`note-title-${note.id}`}>
        {symbolLabel(note.symbol)} {note.direction === "short" ? "short" : note.direction === "long" ? "long" : ""}
        {note.openedAt && <span className="muted"> · opened {formatDateTime(note.openedAt, zone)}</span>}
      </h2>
      <p className="muted">
        {account ? account.name : "Account"} · {note.fills} {note.fills === 1 ? "fill" : "fills"}
        {note.closedAt ? `, closed ${formatDateTime(note.closedAt, zone)}` : ", open"}
        {note.netPnl && (
          <>
            {" "}· net <span className={tone < 0 ? "negative" : tone > 0 ? "positive" : ""}>{formatPnl(note.netPnl, note.currency)}</span>
          </>
        )}
        {note.detachedAt && <> · detached {formatDateTime(note.detachedAt, zone)}</>}
      </p>
      <dl className="note__fields">
        {note.setup && (
          <div>
            <dt>Setup</dt>
            <dd>{note.setup}</dd>
          </div>
        )}
        {note.rating !== null && (
          <div>
            <dt>Rating</dt>
            <dd>{note.rating} out of 5</dd>
          </div>
        )}
        {note.tags.length > 0 && (
          <div>
            <dt>Tags</dt>
            <dd>
              <ul className="tags" aria-label="Tags">
                {note.tags.map((t) => (
                  <li key={t} className="tag">
                    {t}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
      {note.notes && <p className="note__text">{note.notes}</p>}
      {note.images.length > 0 && (
        <ul className="shots" aria-label="Screenshots">
          {note.images.map((img) => (
            <li key={img.id}>
              <a className="shot" href={`/api/journals/${note.id}/images/${img.id}`} target="_blank" rel="noreferrer">
                <img src={`/api/journals/${note.id}/images/${img.id}`} alt={`Screenshot added ${formatDateTime(img.createdAt, zone)}`} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
      <StatusMessage>{status}</StatusMessage>
      {mode === "idle" && (
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={() => setMode("attach")}>
            Attach to a trade
          </button>
          <button type="button" className="button button--secondary" onClick={() => setMode("delete")}>
            Delete note
          </button>
        </div>
      )}
      {mode === "attach" && (
        <AttachForm
          note={note}
          zone={zone}
          onDone={(m) => {
            setStatus(m);
            setMode("idle");
          }}
        />
      )}
      {mode === "delete" && (
        <div className="confirm" role="alertdialog" aria-label="Delete this note?">
          <h3>Delete this note?</h3>
          <p>
            Its text, tags{note.images.length ? ` and ${note.images.length} ${note.images.length === 1 ? "screenshot" : "screenshots"}` : ""} are removed for good.
          </p>
          <ErrorAlert error={remove.error} title="Could not delete the note." />
          <div className="button-row">
            <button type="button" className="button button--danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting…" : "Yes, delete note"}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setMode("idle")}>
              Keep it
            </button>
          </div>
        </div>
      )}
    </article>
  );
}

export function DetachedNotesPage() {
  const notes = useDetachedNotes();
  const accounts = useAccounts();
  const byId = new Map((accounts.data?.accounts ?? []).map((a) => [a.id, a]));
  return (
    <>
      <p className="breadcrumb">
        <Link to="/trades">Trades</Link> / Detached notes
      </p>
      <PageHeader title="Detached notes" />
      <p>
        Notes, tags and screenshots of trades whose fills were deleted or whose import was undone. Each goes back on its trade by itself
        when the same fills return (importing the same file again, for example); you can also put it on a trade, or delete it.
      </p>
      <QueryView query={notes} label="your detached notes">
        {({ journals }) =>
          journals.length === 0 ? (
            <EmptyState title="No detached notes">
              <p>Every note you wrote is on its trade.</p>
            </EmptyState>
          ) : (
            <div className="stack">
              {journals.map((n) => (
                <NoteCard key={n.id} note={n} account={byId.get(n.accountId)} />
              ))}
            </div>
          )
        }
      </QueryView>
    </>
  );
}
