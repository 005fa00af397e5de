import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../api/client.ts";
import { keys, useBrokerages } from "../api/queries.ts";
import { serverFieldErrors } from "../lib/form-errors.ts";
import { ErrorAlert, SelectField, TextField } from "./ui.tsx";

const NEW = "__new__";

type Props = { value: string; onChange(id: string): void; error?: string | undefined };

/** The user's brokerages, "none", or a new one created in place. */
export function BrokerageSelect({ value, onChange, error }: Props) {
  const brokerages = useBrokerages();
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
          else {
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
        <option value={NEW}>New brokerage…</option>
      </SelectField>
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
