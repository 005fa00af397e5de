import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { NewAccountSchema } from "../../../../lib/accounts/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, type Account } from "../../api/queries.ts";
import { BrokerageSelect } from "../../components/brokerage-select.tsx";
import { TimeZonePicker } from "../../components/time-zone-picker.tsx";
import { ErrorAlert, StatusMessage, TextField } from "../../components/ui.tsx";
import { CANONICAL_TIME_ZONES } from "../../../../lib/time/zones.ts";
import { zonedTimeToUtc } from "../../../../lib/time/zoned.ts";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors, type FieldOfCode } from "../../lib/form-errors.ts";
import { guessTimeZone } from "../../lib/time-zones.ts";
import { typedAmount } from "../../lib/decimal.ts";

/** Where the account forms show the API's refusals that carry no `fields`. */
export const ACCOUNT_FIELD_OF_CODE: FieldOfCode = {
  CONFLICT: ["name", "is already used by another account"],
  INVALID_TIMEZONE: ["timezone", "is not a canonical IANA time zone name"],
  FORBIDDEN: ["brokerageId", "is not one of your brokerages"],
};

/** "2024-01-19" in the account's zone, as the instant its day starts. */
export function startOfDay(date: string, timeZone: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const zone = CANONICAL_TIME_ZONES.has(timeZone) ? timeZone : "Etc/UTC";
  return zonedTimeToUtc({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone).toISOString();
}

/** New account: name, currency, starting balance (and the day it is as of), time zone and brokerage. */
export function NewAccountForm({ onCreated }: { onCreated(account: Account): void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [currency, setCurrency] = useState("USD");
  const [startingBalance, setStartingBalance] = useState("");
  const [balanceAsOf, setBalanceAsOf] = useState("");
  const [timezone, setTimezone] = useState(guessTimeZone);
  const [brokerageId, setBrokerageId] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (json: { name: string; currency: string; startingBalance?: string; startingBalanceAt?: string; timezone: string; brokerageId: string | null }) =>
      unwrap(api.api.accounts.$post({ json })),
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: keys.accounts });
      onCreated(account);
    },
  });
  const shown = { ...serverFieldErrors(create.error, ACCOUNT_FIELD_OF_CODE), ...errors };

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = {
      name,
      currency,
      ...(startingBalance.trim() ? { startingBalance: typedAmount(startingBalance) } : {}),
      ...(startingBalance.trim() && balanceAsOf ? { startingBalanceAt: startOfDay(balanceAsOf, timezone) } : {}),
      timezone,
      brokerageId: brokerageId || null,
    };
    const found = schemaErrors(NewAccountSchema, value);
    if (!CANONICAL_TIME_ZONES.has(timezone)) found.timezone ??= "must be chosen from the list";
    setErrors(found);
    if (Object.keys(found).length === 0) create.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="New account">
      <ErrorAlert error={create.error} title="Could not create the account." />
      <div className="grid-2">
        <TextField label="Account name" name="name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={shown.name} required />
        <TextField
          label="Currency"
          name="currency"
          value={currency}
          maxLength={3}
          autoCapitalize="characters"
          onChange={(e) => setCurrency(e.target.value.toUpperCase())}
          error={shown.currency}
          hint="Three letters, such as USD or EUR. Cannot be changed later."
          required
        />
        <TextField
          label="Starting balance"
          name="startingBalance"
          inputMode="decimal"
          value={startingBalance}
          placeholder="0.00"
          onChange={(e) => setStartingBalance(e.target.value)}
          error={shown.startingBalance}
          hint="Cash in the account when you start the journal, e.g. 10000.00. Optional."
        />
        <TextField
          label="Balance as of"
          name="startingBalanceAt"
          type="date"
          value={balanceAsOf}
          onChange={(e) => setBalanceAsOf(e.target.value)}
          error={shown.startingBalanceAt}
          hint="The day the starting balance was your cash. Optional: it moves earlier by itself when you import older trades."
        />
        <BrokerageSelect value={brokerageId} onChange={setBrokerageId} error={shown.brokerageId} />
      </div>
      <TimeZonePicker value={timezone} onChange={setTimezone} error={shown.timezone} />
      <StatusMessage>{create.isPending ? "Creating the account…" : ""}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={create.isPending}>
          Create account
        </button>
      </div>
    </form>
  );
}
