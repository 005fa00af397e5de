// Comments on a trade or a day (docs/sharing.md): the trader's and their mentors', oldest first, and a box to
// add one. A mentor reading a trader's journal passes `mentee` (their comments go in under that journal). A
// comment is shown as text: whatever it holds, nothing in it runs or renders as markup.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { apiFetch, asMentee, readJson } from "../api/client.ts";
import { serverFieldErrors } from "../lib/form-errors.ts";
import { formatDateTime } from "../lib/format.ts";
import { ErrorAlert, StatusMessage, TextAreaField } from "./ui.tsx";

type Comment = { id: string; authorId: string | null; authorEmail: string | null; mine: boolean; body: string; createdAt: string };

/** `path`: the trade's or day's API path (`/api/trades/<id>` or `/api/days/<accountId>/<day>`). */
export function Comments({ path, mentee, intro }: { path: string; mentee?: string; intro?: string }) {
  const url = asMentee(`${path}/comments`, mentee);
  const queryKey = ["comments", url];
  const queryClient = useQueryClient();
  const titleId = useId();
  const [body, setBody] = useState("");
  const list = useQuery({ queryKey, queryFn: async () => readJson<{ comments: Comment[] }>(await apiFetch(url)) });
  const add = useMutation({
    mutationFn: async (text: string) =>
      readJson<{ comment: Comment }>(await apiFetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ body: text }) })),
    onSuccess: () => {
      setBody("");
      void queryClient.invalidateQueries({ queryKey });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(body);
  };
  const errors = serverFieldErrors(add.error);
  const comments = list.data?.comments ?? [];
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>Comments</h2>
      {intro && <p className="muted">{intro}</p>}
      <ErrorAlert error={list.error} title="Could not load the comments." />
      {list.isSuccess && comments.length === 0 && <p className="muted">No comments yet.</p>}
      {comments.length > 0 && (
        <ol className="comments">
          {comments.map((c) => (
            <li key={c.id} className={c.mine ? "comment comment--mine" : "comment"}>
              <p className="comment__meta">
                <strong>{c.mine ? "You" : (c.authorEmail ?? "A deleted user")}</strong> · <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
              </p>
              <p className="notes-text">{c.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit} noValidate>
        <TextAreaField label="Add a comment" value={body} onChange={(e) => setBody(e.target.value)} rows={3} maxLength={5000} error={errors.body} />
        <ErrorAlert error={errors.body ? null : add.error} title="Could not add the comment." />
        <button type="submit" className="button" disabled={add.isPending || body.trim() === ""}>
          {add.isPending ? "Adding…" : "Comment"}
        </button>
        {add.isSuccess && <StatusMessage>Comment added.</StatusMessage>}
      </form>
    </section>
  );
}
