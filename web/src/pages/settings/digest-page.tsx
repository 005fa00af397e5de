// Settings, Digest (docs/digest.md): the weekly review email's day, hour and zone, whether the trader's own model
// writes a short reading of the week, and a preview of the digest as it would be sent now.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
import { keys, useSettings } from "../../api/queries.ts";
import { ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage } from "../../components/ui.tsx";
import { SettingsTabs } from "../../components/settings-tabs.tsx";
import { TimeZonePicker } from "../../components/time-zone-picker.tsx";
import { guessTimeZone } from "../../lib/time-zones.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const READERS = [
  ["", "No reading"],
  ["openai", "OpenAI"],
  ["anthropic", "Anthropic"],
  ["gemini", "Google Gemini"],
  ["openrouter", "OpenRouter"],
] as const;
type Provider = "openai" | "anthropic" | "gemini" | "openrouter";
type Digest = { weekly: boolean; weekday: number; hour: number; zone: string; reading?: string | null | undefined; washWatch?: boolean | undefined };

export function DigestSettingsPage() {
  const settings = useSettings();
  return (
    <>
      <PageHeader title="Weekly digest" />
      <SettingsTabs />
      <QueryView query={settings} label="your settings">
        {(s) => (
          <>
            <DigestForm digest={s.digest} />
            <Preview />
          </>
        )}
      </QueryView>
    </>
  );
}

function DigestForm({ digest }: { digest: Digest | null }) {
  const queryClient = useQueryClient();
  const [weekly, setWeekly] = useState(digest?.weekly ?? false);
  const [weekday, setWeekday] = useState(digest?.weekday ?? 1);
  const [hour, setHour] = useState(digest?.hour ?? 8);
  const [zone, setZone] = useState(digest?.zone ?? guessTimeZone());
  const [reading, setReading] = useState<string>(digest?.reading ?? "");
  const [washWatch, setWashWatch] = useState(digest?.washWatch ?? false);
  const save = useMutation({
    mutationFn: () =>
      unwrap(api.api.settings.$put({ json: { digest: { weekly, weekday, hour, zone, reading: reading ? (reading as Provider) : null, washWatch } } })),
    onSuccess: (data) => queryClient.setQueryData(keys.settings, data),
  });
  const errors = serverFieldErrors(save.error);
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <section className="panel" aria-labelledby="digest-heading">
      <h2 id="digest-heading">Your week by email</h2>
      <p>
        Once a week: the week's net P&amp;L, R and win rate against your average week, your best and worst trade, the rules you broke and what
        those trades made, the behaviour findings, the days you journaled, your open positions and evaluations. A week with one trading day or
        none gets the figures only.
      </p>
      <form className="form" onSubmit={submit} noValidate>
        <label className="checkbox">
          <input type="checkbox" checked={weekly} onChange={(e) => setWeekly(e.target.checked)} /> Send me the weekly digest
        </label>
        <SelectField label="Day" value={weekday} onChange={(e) => setWeekday(Number(e.target.value))} error={errors["digest.weekday"]}>
          {WEEKDAYS.map((d, i) => (
            <option key={d} value={i}>
              {d}
            </option>
          ))}
        </SelectField>
        <SelectField label="Hour" value={hour} onChange={(e) => setHour(Number(e.target.value))} error={errors["digest.hour"]}>
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={h}>
              {`${String(h).padStart(2, "0")}:00`}
            </option>
          ))}
        </SelectField>
        <TimeZonePicker value={zone} onChange={setZone} error={errors["digest.zone"]} />
        <SelectField
          label="Reading by your advisor"
          hint="A short reading of the week written by your own model key (metered like an advisor turn). If the model fails or is slow, the figures go out alone."
          value={reading}
          onChange={(e) => setReading(e.target.value)}
          error={errors["digest.reading"]}
        >
          {READERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <label className="checkbox">
          <input type="checkbox" checked={washWatch} onChange={(e) => setWashWatch(e.target.checked)} /> Include the wash-sale watch (US taxes): the losses a purchase would
          still wash, and until when
        </label>
        <button type="submit" className="button" disabled={save.isPending}>
          Save
        </button>
      </form>
      {save.isSuccess && <StatusMessage>{save.data.digest?.weekly ? `Saved: every ${WEEKDAYS[save.data.digest.weekday]} at ${String(save.data.digest.hour).padStart(2, "0")}:00 (${save.data.digest.zone}).` : "Saved: the digest is off."}</StatusMessage>}
      <ErrorAlert error={save.error} title="Could not save the digest." />
    </section>
  );
}

function Preview() {
  const preview = useMutation({ mutationFn: () => unwrap(api.api.digest.preview.$post({ query: {} })) });
  return (
    <section className="panel" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview</h2>
      <p>The digest as it would be sent now: the seven days before today.</p>
      <button type="button" className="button button--secondary" onClick={() => preview.mutate()} disabled={preview.isPending}>
        Show the preview
      </button>
      <ErrorAlert error={preview.error} title="Could not build the preview." />
      {preview.data && (
        <article aria-label="Digest preview">
          <h3>{preview.data.subject}</h3>
          <pre className="digest-preview">{preview.data.text}</pre>
        </article>
      )}
    </section>
  );
}
