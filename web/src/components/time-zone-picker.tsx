import { useId, useMemo, useState } from "react";
import { fieldMessage } from "./ui.tsx";
import { searchTimeZones, TIME_ZONES } from "../lib/time-zones.ts";

type Props = { value: string; onChange(zone: string): void; error?: string | undefined; label?: string };

/**
 * A searchable list of the canonical IANA zones: a search box filters a list box (a native select, so
 * keyboard and screen-reader behaviour come from the browser).
 */
export function TimeZonePicker({ value, onChange, error, label = "Time zone" }: Props) {
  const id = useId();
  const [query, setQuery] = useState("");
  const matches = useMemo(() => (query.trim() ? searchTimeZones(query, 400) : TIME_ZONES), [query]);
  // The chosen zone stays listed while a search hides it, so the select never shows a blank choice.
  const options = matches.includes(value) || !value ? matches : [value, ...matches];
  return (
    <fieldset className={`field${error ? " field--invalid" : ""}`}>
      <legend>{label}</legend>
      <div className="field">
        <label htmlFor={`${id}-search`}>Search time zones</label>
        <input
          id={`${id}-search`}
          type="search"
          value={query}
          placeholder="e.g. new york, london, tokyo"
          onChange={(e) => setQuery(e.target.value)}
          aria-describedby={`${id}-count`}
        />
        <p className="field__hint" id={`${id}-count`} aria-live="polite">
          {query.trim() ? `${matches.length} matching zone${matches.length === 1 ? "" : "s"}` : `${TIME_ZONES.length} zones`}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-zone`}>{label}</label>
        <select
          id={`${id}-zone`}
          size={6}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-help`}
        >
          {options.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <p className="field__hint" id={`${id}-help`}>
          Selected: <strong>{value || "none"}</strong>. Defines the account's trading day.
        </p>
        {error && (
          <p className="field__error" id={`${id}-error`}>
            {fieldMessage(label, error)}
          </p>
        )}
      </div>
    </fieldset>
  );
}
