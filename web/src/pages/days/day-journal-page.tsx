// The daily journal (docs/discipline.md): one account's week, each trading day with its figures (net P&L and
// closed trades, on the account's clock) beside its entry (the plan before the open, the review after the
// close, the mood and the day's tags), and the week's recap above them.
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { DayEntrySchema } from "../../../../lib/days/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { useInstanceConfig, type Account } from "../../api/queries.ts";
import { TagEditor } from "../../components/tag-editor.tsx";
import { ImageGallery } from "../../components/image-gallery.tsx";
import { Comments } from "../../components/comments.tsx";
import { ErrorAlert, PageHeader, SelectField, StatusMessage, TextAreaField } from "../../components/ui.tsx";
import { WithAccounts } from "../../components/with-accounts.tsx";
import { addDecimals } from "../../lib/decimal.ts";
import { formatPnl, toneOf } from "../../lib/format.ts";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { useAccountParam } from "../import/accounts.ts";
import { addDays, startOfDay, todayIn } from "../dashboard/range.ts";
import { dayLabel, isDay, weekDays, weekLabel, weekStartOf } from "./week.ts";

type Entry = Awaited<ReturnType<typeof fetchDays>>["days"][number];
type Figures = { netPnl: string; trades: number };

function fetchDays(accountId: string, from: string, to: string) {
  return unwrap(api.api.days.$get({ query: { accountId, from, to } }));
}

/** The day's comments (yours and your mentors'), loaded when opened: a week holds seven days. */
function DayComments({ path }: { path: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Comments</summary>
      {open && <Comments path={path} />}
    </details>
  );
}

const MOODS = ["Awful", "Poor", "Even", "Good", "Great"];

function DayForm({ account, day, entry }: { account: Account; day: string; entry: Entry | undefined }) {
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState(entry?.plan ?? "");
  const [review, setReview] = useState(entry?.review ?? "");
  const [mood, setMood] = useState<number | null>(entry?.mood ?? null);
  const [tags, setTags] = useState<string[]>(entry?.tags ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState("");
  type Body = { plan: string | null; review: string | null; mood: number | null; tags: string[] };
  const save = useMutation({
    mutationFn: async (json: Body) => {
      const res = await api.api.days[":accountId"][":day"].$put({ param: { accountId: account.id, day }, json });
      return res.status === 204 ? null : unwrap(Promise.resolve(res));
    },
    onSuccess: async (written) => {
      setSaved(written ? "Saved." : "Nothing left in the entry: removed.");
      await queryClient.invalidateQueries({ queryKey: ["days"] });
    },
  });
  const shown = { ...serverFieldErrors(save.error), ...errors };
  const name = `mood-${day}`;

  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved("");
    const value: Body = { plan: plan.trim() ? plan : null, review: review.trim() ? review : null, mood, tags };
    const found = schemaErrors(DayEntrySchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={`Journal of ${dayLabel(day)}`}>
      <ErrorAlert error={save.error} title="Could not save the day." />
      <div className="grid-2">
        <TextAreaField label="Plan" rows={4} maxLength={20_000} value={plan} onChange={(e) => setPlan(e.target.value)} error={shown.plan} hint="Before the open: what you will trade, and what you will not." />
        <TextAreaField label="Review" rows={4} maxLength={20_000} value={review} onChange={(e) => setReview(e.target.value)} error={shown.review} hint="After the close: what went to plan, what did not." />
      </div>
      <fieldset className={`field${shown.mood ? " field--invalid" : ""}`}>
        <legend>Mood</legend>
        <div className="rating">
          <label>
            <input type="radio" name={name} checked={mood === null} onChange={() => setMood(null)} />
            Not said
          </label>
          {MOODS.map((label, i) => (
            <label key={label}>
              <input type="radio" name={name} checked={mood === i + 1} onChange={() => setMood(i + 1)} />
              {i + 1} {label}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Day tags</legend>
        <TagEditor tags={tags} onChange={setTags} error={shown.tags} hint="e.g. FOMC, tired, news day." />
      </fieldset>
      <StatusMessage>{save.isPending ? "Saving…" : saved}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={save.isPending}>
          Save day<span className="visually-hidden"> {dayLabel(day)}</span>
        </button>
      </div>
    </form>
  );
}

function Week({ accounts }: { accounts: readonly Account[] }) {
  const [params, setParams] = useSearchParams();
  const { account, setAccountId } = useAccountParam(accounts);
  const config = useInstanceConfig();
  const weekStart = config.data?.weekStartDay ?? 1;
  const zone = account!.timezone;
  const today = todayIn(zone);
  const asked = params.get("week");
  const first = weekStartOf(isDay(asked) ? asked : today, weekStart);
  const days = weekDays(first);
  const last = days[6]!;
  const go = (day: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set("week", day);
        return next;
      },
      { replace: true },
    );
  const entries = useQuery({ queryKey: ["days", account!.id, first], queryFn: () => fetchDays(account!.id, first, last) });
  const range = { accountId: account!.id, from: startOfDay(first, zone), to: startOfDay(addDays(last, 1), zone) };
  const calendar = useQuery({ queryKey: ["stats", "calendar", range], queryFn: () => unwrap(api.api.stats.calendar.$get({ query: range })) });
  const compliance = useQuery({
    queryKey: ["rules", account!.id, "compliance", first],
    queryFn: () => unwrap(api.api.rules.compliance.$get({ query: { accountId: account!.id, from: first, to: last } })),
  });
  const ruleLabel = new Map((compliance.data?.rules ?? []).map((r) => [r.id, r.label]));
  const scoreOf = new Map((compliance.data?.days ?? []).map((d) => [d.day, d]));
  const byDay = new Map((entries.data?.days ?? []).map((e) => [e.day, e]));
  const figures = new Map<string, Figures>((calendar.data?.days ?? []).map((d) => [d.date, d]));
  const traded = [...figures.values()];
  const net = traded.reduce((sum, d) => addDecimals(sum, d.netPnl), "0");
  const trades = traded.reduce((n, d) => n + d.trades, 0);
  const green = traded.filter((d) => toneOf(d.netPnl) === "positive").length;
  const red = traded.filter((d) => toneOf(d.netPnl) === "negative").length;
  const moods = [...byDay.values()].flatMap((e) => (e.mood === null ? [] : [e.mood]));
  const label = weekLabel(first);

  return (
    <>
      <div className="panel stack">
        <SelectField label="Account" value={account!.id} onChange={(e) => setAccountId(e.target.value)}>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
        <div className="button-row" role="group" aria-label="Week">
          <button type="button" className="button button--secondary" onClick={() => go(addDays(first, -7))}>
            ‹ Previous week
          </button>
          <button type="button" className="button button--secondary" onClick={() => go(today)} disabled={days.includes(today)}>
            This week
          </button>
          <button type="button" className="button button--secondary" onClick={() => go(addDays(first, 7))}>
            Next week ›
          </button>
        </div>
      </div>
      <section className="panel" aria-labelledby="recap-title">
        <h2 id="recap-title" aria-live="polite">
          Week of {label}
        </h2>
        <ErrorAlert error={calendar.error ?? entries.error} title="Could not load the week." />
        <dl className="stats">
          <div>
            <dt>Net P&amp;L</dt>
            <dd className={toneOf(net)}>{formatPnl(net, account!.currency)}</dd>
          </div>
          <div>
            <dt>Closed trades</dt>
            <dd>{trades}</dd>
          </div>
          <div>
            <dt>Green / red days</dt>
            <dd>
              {green} / {red}
            </dd>
          </div>
          <div>
            <dt>Days journaled</dt>
            <dd>
              {byDay.size} of 7
            </dd>
          </div>
          <div>
            <dt>Average mood</dt>
            <dd>{moods.length ? (moods.reduce((a, b) => a + b, 0) / moods.length).toFixed(1) : "—"}</dd>
          </div>
        </dl>
        <p>
          <Link
            className="button button--secondary"
            to={`/advisor?ask=${encodeURIComponent(
              `Draft my weekly recap for the account "${account!.name}" (id ${account!.id}), the week of ${label} (${first} to ${last}): the week's figures, the rules I broke, ` +
                `what the behaviour findings show, and what my daily journal's plans and reviews say. End with three things to keep doing and one to change.`,
            )}`}
          >
            Draft the recap with the advisor
          </Link>
        </p>
        <p className="muted">
          Days on the account&apos;s clock ({zone}). <Link to={`/dashboard?account=${account!.id}`}>Dashboard</Link> · <Link to={`/trades?accountId=${account!.id}&from=${first}&to=${last}`}>This week&apos;s trades</Link>
        </p>
      </section>
      {entries.isSuccess &&
        days.map((day) => {
          const f = figures.get(day);
          const entry = byDay.get(day);
          const titleId = `day-${day}`;
          return (
            <section key={day} className="panel" aria-labelledby={titleId} data-day={day}>
              <h2 id={titleId}>
                {dayLabel(day)}
                {day === today && <span className="badge">Today</span>}
              </h2>
              <p className={f ? toneOf(f.netPnl) : "muted"}>
                {f ? `${formatPnl(f.netPnl, account!.currency)} · ${f.trades} ${f.trades === 1 ? "trade" : "trades"} closed` : "No trades closed."}
              </p>
              {scoreOf.get(day)?.score != null && (
                <p className="muted">
                  Rules: {scoreOf.get(day)!.score} / 100
                  {scoreOf.get(day)!.broken.length > 0 ? ` · broke ${scoreOf.get(day)!.broken.map((id) => ruleLabel.get(id) ?? "a rule").join("; ")}` : " · all kept"}
                </p>
              )}
              <details open={entry !== undefined || day === today}>
                <summary>{entry ? "The day's journal" : "Write the day's journal"}</summary>
                <DayForm key={`${account!.id}-${day}`} account={account!} day={day} entry={entry} />
                <ImageGallery base={`/api/days/${account!.id}/${day}`} id={`day-images-${day}`} words={{ title: "Images of the day", noun: "image", owner: dayLabel(day) }} />
              </details>
              <DayComments path={`/api/days/${account!.id}/${day}`} />
            </section>
          );
        })}
    </>
  );
}

export function DayJournalPage() {
  return (
    <>
      <PageHeader title="Journal" />
      <DisciplineTabs />
      <WithAccounts why="The daily journal is kept per account and trading day.">{(list) => <Week accounts={list} />}</WithAccounts>
    </>
  );
}
