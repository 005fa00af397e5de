// Tags as removable chips and a field to add one (Enter adds it rather than submitting the form around it). The
// field offers the tags already in use as you type (a datalist); tags are case-insensitive, so "Breakout" typed
// beside "breakout" is the same tag (the server keeps the spelling already in use: lib/tags/tags.ts).
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, unwrap } from "../api/client.ts";
import { TextField } from "./ui.tsx";

export function TagEditor({ tags, onChange, error, hint = "Up to 20 tags, e.g. breakout, earnings." }: { tags: string[]; onChange(tags: string[]): void; error?: string | undefined; hint?: string }) {
  const [draft, setDraft] = useState("");
  const listId = useId();
  const known = useQuery({ queryKey: ["tags", "list"], queryFn: () => unwrap(api.api.tags.$get()), staleTime: 60_000 });
  function add() {
    const typed = draft.trim();
    // The spelling already in use, when the tag exists in another case.
    const t = known.data?.tags.find((k) => k.tag.toLowerCase() === typed.toLowerCase())?.tag ?? typed;
    if (t && !tags.some((x) => x.toLowerCase() === t.toLowerCase())) onChange([...tags, t]);
    setDraft("");
  }
  return (
    <div className="field">
      {tags.length > 0 ? (
        <ul className="tags" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="tag">
              {t}
              <button type="button" aria-label={`Remove tag ${t}`} onClick={() => onChange(tags.filter((x) => x !== t))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No tags yet.</p>
      )}
      <div className="form--inline form">
        <TextField
          label="New tag"
          value={draft}
          list={listId}
          autoComplete="off"
          maxLength={50}
          error={error}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the tag rather than saving the whole journal form.
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          hint={hint}
        />
        <datalist id={listId}>
          {(known.data?.tags ?? [])
            .filter((k) => !tags.some((x) => x.toLowerCase() === k.tag.toLowerCase()))
            .map((k) => (
              <option key={k.tag} value={k.tag} />
            ))}
        </datalist>
        <div>
          <button type="button" className="button button--secondary" onClick={add} disabled={tags.length >= 20}>
            Add tag
          </button>
        </div>
      </div>
    </div>
  );
}
