// The trade's playbook (docs/discipline.md): which of the trader's playbooks it was taken from, and its
// checklist answered: a tick, a number, a text or one of a choice's options per item. Saved on the trade's
// journal (PATCH /api/trades/:id {playbookId, playbookAnswers}), so it follows the fills like the notes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { keys, usePlaybooks } from "../../api/queries.ts";
import { ErrorAlert, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { serverFieldErrors } from "../../lib/form-errors.ts";

type Answer = boolean | number | string;
/** A trade as the API sends it (a server from before playbooks sends neither field). */
type Trade = { id: string; playbookId?: string | null; playbookAnswers?: Record<string, Answer> };

export function PlaybookPanel({ trade }: { trade: Trade }) {
  const queryClient = useQueryClient();
  const given = trade.playbookAnswers ?? {};
  const books = usePlaybooks();
  const [playbookId, setPlaybookId] = useState(trade.playbookId ?? "");
  const [answers, setAnswers] = useState<Record<string, Answer | null>>(given);
  const [numbers, setNumbers] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(given).flatMap(([k, v]) => (typeof v === "number" ? [[k, String(v)]] : []))),
  );
  const [problem, setProblem] = useState("");
  const [saved, setSaved] = useState("");
  const save = useMutation({
    mutationFn: (json: { playbookId: string | null; playbookAnswers: Record<string, Answer | null> }) =>
      unwrap(api.api.trades[":id"].$patch({ param: { id: trade.id }, json })),
    onSuccess: async () => {
      setSaved("Playbook saved.");
      await queryClient.invalidateQueries({ queryKey: keys.trades });
      await queryClient.invalidateQueries({ queryKey: keys.playbooks });
    },
  });
  const list = books.data?.playbooks ?? [];
  // Archived playbooks are not offered, but the one the trade has stays shown.
  const offered = list.filter((b) => !b.archived || b.id === trade.playbookId);
  const book = list.find((b) => b.id === playbookId);
  const serverErrors = serverFieldErrors(save.error);

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved("");
    setProblem("");
    if (!book) {
      save.mutate({ playbookId: null, playbookAnswers: {} });
      return;
    }
    const out: Record<string, Answer | null> = {};
    for (const item of book.items) {
      if (item.kind === "number") {
        const text = (numbers[item.id] ?? "").trim();
        if (text === "") out[item.id] = null;
        else if (!Number.isFinite(Number(text))) {
          setProblem(`"${item.label}" must be a number.`);
          return;
        } else out[item.id] = Number(text);
      } else if (item.kind === "checkbox") {
        // Unticked is an answer too: the trade broke that item.
        out[item.id] = answers[item.id] === true;
      } else {
        const v = answers[item.id];
        out[item.id] = v === undefined || v === "" ? null : v;
      }
    }
    // Answers to items of another playbook are removed with the change of playbook.
    for (const key of Object.keys(given)) if (!(key in out)) out[key] = null;
    save.mutate({ playbookId: book.id, playbookAnswers: out });
  }

  return (
    <section className="panel" aria-labelledby="playbook-title">
      <h2 id="playbook-title">Playbook</h2>
      {books.isSuccess && list.length === 0 ? (
        <p className="muted">
          No playbooks yet. <Link to="/playbooks">Write one</Link>: a setup you trade, with the checklist a trade taken from it should pass.
        </p>
      ) : (
        <form className="form" onSubmit={submit} noValidate aria-label="Trade playbook">
          <ErrorAlert error={save.error} title="Could not save the playbook." />
          <SelectField label="Taken from" value={playbookId} onChange={(e) => setPlaybookId(e.target.value)} error={serverErrors.playbookId}>
            <option value="">No playbook</option>
            {offered.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
                {b.archived ? " (archived)" : ""}
              </option>
            ))}
          </SelectField>
          {book && (book.entryCriteria || book.exitCriteria) && (
            <dl className="facts">
              {book.entryCriteria && (
                <>
                  <dt>Entry</dt>
                  <dd>{book.entryCriteria}</dd>
                </>
              )}
              {book.exitCriteria && (
                <>
                  <dt>Exit</dt>
                  <dd>{book.exitCriteria}</dd>
                </>
              )}
            </dl>
          )}
          {book && book.items.length > 0 && (
            <fieldset>
              <legend>Checklist</legend>
              {book.items.map((item) => {
                const error = serverErrors[`playbookAnswers.${item.id}`];
                if (item.kind === "checkbox") {
                  return (
                    <label key={item.id} className="checkbox">
                      <input type="checkbox" checked={answers[item.id] === true} onChange={(e) => setAnswers({ ...answers, [item.id]: e.target.checked })} />
                      {item.label}
                    </label>
                  );
                }
                if (item.kind === "choice") {
                  return (
                    <SelectField key={item.id} label={item.label} value={typeof answers[item.id] === "string" ? (answers[item.id] as string) : ""} error={error} onChange={(e) => setAnswers({ ...answers, [item.id]: e.target.value })}>
                      <option value="">Not answered</option>
                      {(item.options ?? []).map((o) => (
                        <option key={o} value={o}>
                          {o}
                        </option>
                      ))}
                    </SelectField>
                  );
                }
                if (item.kind === "number") {
                  return <TextField key={item.id} label={item.label} inputMode="decimal" value={numbers[item.id] ?? ""} error={error} onChange={(e) => setNumbers({ ...numbers, [item.id]: e.target.value })} />;
                }
                return (
                  <TextField key={item.id} label={item.label} value={typeof answers[item.id] === "string" ? (answers[item.id] as string) : ""} maxLength={1000} error={error} onChange={(e) => setAnswers({ ...answers, [item.id]: e.target.value })} />
                );
              })}
            </fieldset>
          )}
          {problem && (
            <p className="field__error" role="alert">
              {problem}
            </p>
          )}
          <StatusMessage>{save.isPending ? "Saving…" : saved}</StatusMessage>
          <div className="button-row">
            <button type="submit" className="button" disabled={save.isPending}>
              Save playbook
            </button>
            <Link to="/playbooks" className="button button--secondary">
              Your playbooks
            </Link>
          </div>
        </form>
      )}
    </section>
  );
}
