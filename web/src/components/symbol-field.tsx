import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type KeyboardEvent } from "react";
import { api, unwrap } from "../api/client.ts";
import { Field } from "./ui.tsx";

type Props = {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  maxLength?: number;
};

/** Waits `ms` after the last change before passing a value on. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * A text field that suggests tickers from the regulator's list as the reader types (GET /api/symbols,
 * debounced). An ARIA 1.2 combobox: arrow keys move through the suggestions, Enter picks one, Escape closes
 * the list; typing anything else (an option symbol, a future) is still accepted as it is.
 */
export function SymbolField({ label, value, onChange, error, hint, required, maxLength = 40 }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const q = useDebounced(value.trim(), 200);
  const search = useQuery({
    queryKey: ["symbols", q.toUpperCase()],
    queryFn: () => unwrap(api.api.symbols.$get({ query: { q } })),
    enabled: open && q.length > 0 && q.length <= 50,
    staleTime: 5 * 60_000,
  });
  const options = open && q.length > 0 ? (search.data?.symbols ?? []) : [];
  const expanded = options.length > 0;

  function pick(ticker: string) {
    onChange(ticker);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      if (options.length) setActive((i) => (i + 1) % options.length);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      if (options.length) setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
    } else if (e.key === "Enter" && expanded && active >= 0) {
      e.preventDefault();
      pick(options[active]!.ticker);
    } else if (e.key === "Escape" && expanded) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <Field label={label} error={error} hint={hint}>
      {(ids) => (
        <div className="combobox__anchor">
          <input
            {...ids}
            role="combobox"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={maxLength}
            required={required}
            value={value}
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={`${ids.id}-list`}
            aria-activedescendant={expanded && active >= 0 ? `${ids.id}-opt-${active}` : undefined}
            onChange={(e) => {
              onChange(e.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul id={`${ids.id}-list`} role="listbox" aria-label={`${label} suggestions`} className="combobox__list" hidden={!expanded}>
            {options.map((s, i) => (
              <li
                key={s.ticker}
                id={`${ids.id}-opt-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? "combobox__option combobox__option--active" : "combobox__option"}
                // mousedown, not click: it comes before the input's blur closes the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(s.ticker);
                }}
              >
                <strong>{s.ticker}</strong> <span>{s.name}</span>
                {s.exchange && <span className="combobox__meta"> · {s.exchange}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Field>
  );
}
