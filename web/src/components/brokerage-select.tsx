import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../api/client.ts";
import { keys, useBrokerages } from "../api/queries.ts";
import { serverFieldErrors } from "../lib/form-errors.ts";
import { ErrorAlert, SelectField, TextField } from "./ui.tsx";

const NEW = "__new__";
/** An option naming a broker the importer knows: chosen, it is added as the trader's brokerage. */
const KNOWN = "__known__:";

/** The brokers of the importer's presets ("Interactive Brokers: Flex Query trades (CSV)" -> "Interactive Brokers"). */
export function knownBrokers(presets: ReadonlyArray<{ id: string; name: string }>): string[] {
  return [...new Set(presets.filter((p) => p.id !== "generic").map((p) => p.name.split(":")[0]!.trim()))].sort((a, b) => a.localeCompare(b));
}

type Props = { value: string; onChange(id: string): void; error?: string | undefined };

/** The user's brokerages, "none", a broker the importer knows, or a new one created in place. */
export function BrokerageSelect({ value, onChange, error }: Props) {
  const brokerages = useBrokerages();
  const presets = useQuery({ queryKey: ["csv-import", "presets"], queryFn: () => unwrap(api.api["csv-import"].presets.$get()), staleTime: Infinity });
  const mine = new Set((brokerages.data?.brokerages ?? []).map((b) => b.name.toLowerCase()));
  const offered = knownBrokers(presets.data?.presets ?? []).filter((n) => !mine.has(n.toLowerCase()));
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string>();
  const create = useMutation({
    mutationFn: (n: string) => unwrap(api.api.brokerages.$post({ json: { name: n } })),
    onSuccess: async (b) => {
      await queryClient.invalidateQueries({ queryKey: keys.brokerages });
      onChange(b.id);
      setAdding(false);
      setName("");
    },
  });

  function add() {
    if (!name.trim()) {
      setNameError("is required");
      return;
    }
    setNameError(undefined);
    create.mutate(name.trim());
  }

  return (
    <div className="field">
      <SelectField
        label="Brokerage"
        value={adding ? NEW : value}
        error={error}
        hint={brokerages.isPending ? "Loading your brokerages…" : brokerages.isError ? "Could not load your brokerages." : undefined}
        onChange={(e) => {
          if (e.target.value === NEW) setAdding(true);
          else if (e.target.value.startsWith(KNOWN)) {
            setAdding(false);
            create.mutate(e.target.value.slice(KNOWN.length));
          } else {
            setAdding(false);
            onChange(e.target.value);
          }
        }}
      >
        <option value="">No brokerage</option>
        {brokerages.data?.brokerages.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
        {offered.length > 0 && (
          <optgroup label="Brokers the importer knows">
            {offered.map((n) => (
              <option key={n} value={`${KNOWN}${n}`}>
                {n}
              </option>
            ))}
          </optgroup>
        )}
        <option value={NEW}>New brokerage…</option>
      </SelectField>
      {!adding && <ErrorAlert error={create.error} title="Could not add the brokerage." />}
      {adding && (
        <div className="panel">
          <ErrorAlert error={create.error} />
          <TextField
            label="New brokerage name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            error={nameError ?? serverFieldErrors(create.error, { CONFLICT: ["name", "is already used by another brokerage"] }).name}
            onKeyDown={(e) => {
              // Enter adds the brokerage instead of submitting the surrounding account form.
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
          <div className="button-row" style={{ marginTop: "0.75rem" }}>
            <button type="button" className="button button--secondary" onClick={add} disabled={create.isPending}>
              {create.isPending ? "Adding…" : "Add brokerage"}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setAdding(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
