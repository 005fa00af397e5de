// The fields a trade's journal and an option strategy's journal share: the rating (none, or 1 to 5), the tags and
// the notes, and the form's end with its Save button. Each form keeps its own state and schema; these only draw
// the fields and their errors.
import { TagEditor } from "./tag-editor.tsx";
import { StatusMessage, TextAreaField } from "./ui.tsx";
import type { FieldErrors } from "../lib/form-errors.ts";

export function RatingField({ rating, onChange, error }: { rating: number | null; onChange(rating: number | null): void; error?: string | undefined }) {
  return (
    <fieldset className={`field${error ? " field--invalid" : ""}`}>
      <legend>Rating</legend>
      <div className="rating">
        <label>
          <input type="radio" name="rating" checked={rating === null} onChange={() => onChange(null)} />
          None
        </label>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n}>
            <input type="radio" name="rating" checked={rating === n} onChange={() => onChange(n)} />
            {n}
            <span className="visually-hidden"> out of 5</span>
          </label>
        ))}
      </div>
      {error && <p className="field__error">Rating {error}.</p>}
    </fieldset>
  );
}

type TagsAndNotes = { tags: string[]; onTags(tags: string[]): void; notes: string; onNotes(notes: string): void; errors: FieldErrors };

export function TagsAndNotesFields({ tags, onTags, notes, onNotes, errors }: TagsAndNotes) {
  return (
    <>
      <fieldset>
        <legend>Tags</legend>
        <TagEditor tags={tags} onChange={onTags} error={errors.tags} />
      </fieldset>
      <TextAreaField label="Notes" value={notes} rows={6} maxLength={20_000} onChange={(e) => onNotes(e.target.value)} error={errors.notes} />
    </>
  );
}

type JournalEnd = TagsAndNotes & { rating: number | null; onRating(rating: number | null): void; saving: boolean; saved: string };

/** A journal form's end: rating, tags, notes, what saving says, and the Save button. */
export function JournalFormEnd({ rating, onRating, saving, saved, ...fields }: JournalEnd) {
  return (
    <>
      <RatingField rating={rating} onChange={onRating} error={fields.errors.rating} />
      <TagsAndNotesFields {...fields} />
      <StatusMessage>{saving ? "Saving…" : saved}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={saving}>
          Save journal
        </button>
      </div>
    </>
  );
}
