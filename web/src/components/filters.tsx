// The pieces the list pages' filter forms share (the trades list, the option strategies list): the account and
// status choices, and Apply / Clear.
import type { Account } from "../api/queries.ts";
import { SelectField } from "./ui.tsx";

type Change = (e: { target: { value: string } }) => void;

export function AccountFilter({ value, accounts, onChange }: { value: string; accounts: readonly Account[]; onChange: Change }) {
  return (
    <SelectField label="Account" value={value} onChange={onChange}>
      <option value="">All accounts</option>
      {accounts.map((a) => (
        <option key={a.id} value={a.id}>
          {a.name}
        </option>
      ))}
    </SelectField>
  );
}

export function StatusFilter({ value, onChange }: { value: string; onChange: Change }) {
  return (
    <SelectField label="Status" value={value} onChange={onChange}>
      <option value="">Open and closed</option>
      <option value="open">Open</option>
      <option value="closed">Closed</option>
    </SelectField>
  );
}

/** Apply (the form's submit) and Clear (every filter dropped at once). */
export function FilterActions({ onClear }: { onClear(): void }) {
  return (
    <div className="button-row">
      <button type="submit" className="button">
        Apply filters
      </button>
      <button type="button" className="button button--secondary" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}
