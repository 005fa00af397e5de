// Tags as removable chips and a field to add one (Enter adds it rather than submitting the form around it).
import { useState } from "react";
import { TextField } from "./ui.tsx";

export function TagEditor({ tags, onChange, error, hint = "Up to 20 tags, e.g. breakout, earnings." }: { tags: string[]; onChange(tags: string[]): void; error?: string | undefined; hint?: string }) {
  const [draft, setDraft] = useState("");
  function add() {
    const t = draft.trim();
    if (t && !tags.includes(t)) onChange([...tags, t]);
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
        <div>
          <button type="button" className="button button--secondary" onClick={add} disabled={tags.length >= 20}>
            Add tag
          </button>
        </div>
      </div>
    </div>
  );
}
