import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
import { asApiError } from "../../api/errors.ts";
import { ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { SettingsTabs } from "../../components/settings-tabs.tsx";

type Provider = "openai" | "anthropic" | "gemini" | "openrouter";

const PROVIDERS: ReadonlyArray<{ id: Provider; name: string; where: string }> = [
  { id: "openai", name: "OpenAI", where: "platform.openai.com → API keys" },
  { id: "anthropic", name: "Anthropic", where: "console.anthropic.com → API keys" },
  { id: "gemini", name: "Google Gemini", where: "aistudio.google.com → Get API key" },
  { id: "openrouter", name: "OpenRouter", where: "openrouter.ai → Keys" },
];

const keysKey = ["advisor", "keys"] as const;
const modelsKey = ["advisor", "models"] as const;
const marketKey = ["advisor", "market-data-key"] as const;
const barsKey = ["bars", "key"] as const;

type Status = { verified: boolean; keyHintTail: string } | null;

function StatusLine({ status }: { status: Status }) {
  if (!status) return <p className="key-status">Not set</p>;
  return (
    <p className="key-status">
      <span className={`badge ${status.verified ? "badge--verified" : "badge--unverified"}`}>{status.verified ? "Verified" : "Not verified yet"}</span>{" "}
      <span className="muted">Key ending in …{status.keyHintTail}</span>
    </p>
  );
}

/** What a save answered, in words: stored and checked, stored unchecked, or refused (the provider said no). */
function savedMessage(verified: boolean): string {
  return verified ? "Saved and verified." : "Saved. The provider did not answer; it will be checked on first use.";
}

/** The key form shared by the provider cards and the market-data card: paste, save or replace, remove. */
function KeyForm({ label, hasKey, onSave, onRemove }: { label: string; hasKey: boolean; onSave(apiKey: string): Promise<boolean>; onRemove(): Promise<void> }) {
  const [apiKey, setApiKey] = useState("");
  const [done, setDone] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const name = useId();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone("");
    setError(null);
    if (!apiKey.trim()) {
      setError(new Error("Paste the key first."));
      return;
    }
    setPending(true);
    try {
      setDone(savedMessage(await onSave(apiKey.trim())));
      setApiKey("");
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  }

  async function remove() {
    setPending(true);
    setError(null);
    try {
      await onRemove();
      setDone("Removed.");
      setConfirming(false);
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  }

  const fieldError = error ? asApiError(error).fields.find((f) => f.path === "apiKey")?.message : undefined;
  return (
    <form className="form key-form" onSubmit={submit} noValidate aria-label={`${label} key`}>
      <ErrorAlert error={error && !fieldError ? error : null} title={`Could not save the ${label} key.`} />
      <TextField
        label={hasKey ? "Replace with a new key" : "API key"}
        name={name}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={apiKey}
        onChange={(e) => setApiKey(e.target.value)}
        error={fieldError}
      />
      <StatusMessage>{pending ? "Checking the key with the provider…" : done}</StatusMessage>
      <div className="button-row">
        <button type="submit" className="button" disabled={pending}>
          {hasKey ? "Replace key" : "Save key"}
        </button>
        {hasKey && !confirming && (
          <button type="button" className="button button--secondary" disabled={pending} onClick={() => setConfirming(true)}>
            Remove
          </button>
        )}
        {hasKey && confirming && (
          <>
            <span>Remove the {label} key?</span>
            <button type="button" className="button button--danger" disabled={pending} onClick={() => void remove()}>
              Yes, remove
            </button>
            <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        )}
      </div>
    </form>
  );
}

function ModelPicker({ provider, current, models }: { provider: Provider; current: string; models: readonly string[] | null | undefined }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (defaultModel: string) =>
      unwrap(api.api.advisor["provider-keys"][":provider"].$patch({ param: { provider }, json: { defaultModel } })),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: keysKey }), queryClient.invalidateQueries({ queryKey: modelsKey })]),
  });
  if (models === undefined) return <p className="muted">Loading the models this key can use…</p>;
  const options = models ?? [current];
  return (
    <>
      <ErrorAlert error={change.error} title="Could not change the default model." />
      <SelectField label="Default model" value={current} disabled={change.isPending} onChange={(e) => change.mutate(e.target.value)}>
        {(options.includes(current) ? options : [current, ...options]).map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </SelectField>
      {models === null && <p className="muted">The provider's model list could not be fetched just now; the current choice is kept.</p>}
    </>
  );
}

const verifiedOf = (saved: { configured: boolean; verified?: boolean }) => saved.configured && Boolean(saved.verified);

type DataKeyStatus = { configured: boolean; keyHintTail?: string | undefined; verified?: boolean | undefined };

/** A data key's card (market data, price bars): its status and the key form. */
function DataKeyCard(props: {
  id: string;
  title: string;
  hint: string;
  label: string;
  query: UseQueryResult<DataKeyStatus>;
  onSave(apiKey: string): Promise<boolean>;
  onRemove(): Promise<void>;
  refresh(): Promise<unknown>;
}) {
  return (
    <section className="panel key-card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <p className="muted">{props.hint}</p>
      <QueryView query={props.query} label={`the ${props.label} key`}>
        {(m) => (
          <>
            <StatusLine status={m.configured ? { verified: Boolean(m.verified), keyHintTail: m.keyHintTail ?? "" } : null} />
            <KeyForm
              label={props.label}
              hasKey={m.configured}
              onSave={async (apiKey) => {
                const verified = await props.onSave(apiKey);
                await props.refresh();
                return verified;
              }}
              onRemove={async () => {
                await props.onRemove();
                await props.refresh();
              }}
            />
          </>
        )}
      </QueryView>
    </section>
  );
}

export function AdvisorKeysPage() {
  const queryClient = useQueryClient();
  const stored = useQuery({ queryKey: keysKey, queryFn: () => unwrap(api.api.advisor["provider-keys"].$get()) });
  const models = useQuery({ queryKey: modelsKey, queryFn: () => unwrap(api.api.advisor.models.$get()), enabled: (stored.data?.keys.length ?? 0) > 0 });
  const market = useQuery({ queryKey: marketKey, queryFn: () => unwrap(api.api.advisor["market-data-key"].$get()) });
  const bars = useQuery({ queryKey: barsKey, queryFn: () => unwrap(api.api.bars.key.$get()) });
  const refresh = () => Promise.all([keysKey, modelsKey, marketKey, barsKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  return (
    <>
      <PageHeader title="Advisor keys" />
      <SettingsTabs />
      <p>
        The advisor answers with your own model provider account. Keys are stored encrypted; after saving, only their last four
        characters are ever shown. Each key is checked with its provider when you save it.
      </p>
      <QueryView query={stored} label="your keys">
        {({ keys }) => (
          <div className="key-cards">
            {PROVIDERS.map((p) => {
              const item = keys.find((k) => k.provider === p.id);
              const listing = models.data?.providers.find((m) => m.provider === p.id);
              return (
                <section key={p.id} className="panel key-card" aria-labelledby={`key-${p.id}`}>
                  <h2 id={`key-${p.id}`}>{p.name}</h2>
                  <StatusLine status={item ?? null} />
                  {item && <ModelPicker provider={p.id} current={item.defaultModel} models={models.isPending ? undefined : (listing?.models ?? null)} />}
                  <KeyForm
                    label={p.name}
                    hasKey={Boolean(item)}
                    onSave={async (apiKey) => {
                      const saved = await unwrap(api.api.advisor["provider-keys"][":provider"].$put({ param: { provider: p.id }, json: { apiKey } }));
                      await refresh();
                      return saved.verified;
                    }}
                    onRemove={async () => {
                      await unwrap(api.api.advisor["provider-keys"][":provider"].$delete({ param: { provider: p.id } }));
                      await refresh();
                    }}
                  />
                  <p className="muted">Where to find it: {p.where}.</p>
                </section>
              );
            })}
          </div>
        )}
      </QueryView>
      <DataKeyCard
        id="key-market-data"
        title="Market data (Finnhub)"
        hint="Optional: lets the advisor look up a current quote when it discusses your positions."
        label="market-data"
        query={market}
        onSave={async (apiKey) => verifiedOf(await unwrap(api.api.advisor["market-data-key"].$put({ json: { apiKey } })))}
        onRemove={async () => void (await unwrap(api.api.advisor["market-data-key"].$delete()))}
        refresh={refresh}
      />
      <DataKeyCard
        id="key-bars"
        title="Price bars (Polygon.io)"
        hint="Optional: draws your trades on their 1-minute chart and measures how far each went for and against you. Polygon's free plan covers two years of US stocks; without a key, upload candles on the trade page."
        label="bar provider"
        query={bars}
        onSave={async (apiKey) => verifiedOf(await unwrap(api.api.bars.key.$put({ json: { apiKey } })))}
        onRemove={async () => void (await unwrap(api.api.bars.key.$delete()))}
        refresh={refresh}
      />
    </>
  );
}
