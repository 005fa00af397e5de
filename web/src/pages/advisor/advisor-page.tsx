// The advisor (/advisor, /advisor/:conversationId): the trader's conversations beside the open one, answers
// streamed as they are written, the tools the advisor used to read the journal, trade citations as links,
// Stop and Retry, the credits each answer used and the balance, the model picker and the data-sharing switch.
// States for no key, no credits and a provider that fails are spelled out with the way forward.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Link, NavLink, useNavigate, useParams, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useInstanceConfig } from "../../api/queries.ts";
import { ErrorAlert, EmptyState, Loading, PageHeader, QueryView, StatusMessage } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { PROVIDER_NAMES } from "../../lib/providers.ts";
import { AnswerMarkdown } from "./answer-markdown.tsx";
import { useTurn, type ToolActivity, type TurnState, type TurnUsage } from "./use-turn.ts";

const listKey = ["advisor", "conversations"] as const;
const conversationKey = (id: string) => ["advisor", "conversation", id] as const;
const walletKey = ["billing", "wallet"] as const;

const credits = (n: number) => new Intl.NumberFormat().format(n);

/** "provider/model" as one select value. */
const choiceOf = (provider: string, model: string) => `${provider} ${model}`;

function ToolList({ tools }: { tools: ToolActivity[] }) {
  if (!tools.length) return null;
  return (
    <ul className="tool-activity" aria-label="What the advisor read">
      {tools.map((t) => (
        <li key={t.id} className={t.ok === false ? "negative" : undefined}>
          {t.summary ?? `Reading your journal (${t.name.replaceAll("_", " ")})…`}
        </li>
      ))}
    </ul>
  );
}

function UsageLine({ usage }: { usage: TurnUsage | null | undefined }) {
  if (!usage) return null;
  return (
    <p className="muted message__usage">
      {usage.credits !== undefined ? `${credits(usage.credits)} credits · ` : ""}
      {credits(usage.inputTokens)} tokens in, {credits(usage.outputTokens)} out
    </p>
  );
}

/** A refusal or failure in words, with the way forward. */
function TurnProblem({ code, message, provider, onRetry }: { code: string; message: string; provider: string; onRetry?: () => void }) {
  const name = PROVIDER_NAMES[provider] ?? provider;
  return (
    <div className="alert alert--error" role="alert">
      <p>{message}</p>
      {(code === "PROVIDER_KEY_REQUIRED" || code === "PROVIDER_KEY_INVALID") && (
        <p>
          <Link to="/settings/keys">Manage your {name} key</Link>
        </p>
      )}
      {code === "INSUFFICIENT_CREDITS" && (
        <p>
          <Link to="/settings/billing">Buy credits</Link>
        </p>
      )}
      {onRetry && (
        <button type="button" className="button button--secondary button--small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

type StoredMessage = {
  id: string;
  role: "user" | "assistant";
  text: string;
  toolCalls: Array<{ id: string; name: string; summary: string }>;
  usage?: TurnUsage;
  status: "complete" | "incomplete" | "failed";
  createdAt: string;
};

function MessageView({ message, onRetry }: { message: StoredMessage; onRetry?: () => void }) {
  if (message.role === "user") {
    return (
      <li className="message message--user">
        <p className="visually-hidden">You asked:</p>
        <p className="message__text">{message.text}</p>
      </li>
    );
  }
  return (
    <li className="message message--assistant">
      <p className="visually-hidden">The advisor answered:</p>
      <ToolList tools={message.toolCalls.map((c) => ({ id: c.id, name: c.name, summary: c.summary, ok: true }))} />
      {message.text && <AnswerMarkdown text={message.text} />}
      {message.status === "incomplete" && <p className="notice">This answer stopped before the end.</p>}
      {message.status === "failed" && (
        <div className="alert alert--error">
          <p>There is no answer to this message: the provider failed.</p>
          {onRetry && (
            <button type="button" className="button button--secondary button--small" onClick={onRetry}>
              Retry
            </button>
          )}
        </div>
      )}
      <UsageLine usage={message.usage} />
    </li>
  );
}

function LiveTurn({ turn, provider, onStop, onRetry }: { turn: TurnState; provider: string; onStop(): void; onRetry(): void }) {
  const busy = turn.phase === "asking" || turn.phase === "streaming";
  return (
    <>
      <li className="message message--user">
        <p className="visually-hidden">You asked:</p>
        <p className="message__text">{turn.question}</p>
      </li>
      <li className="message message--assistant" aria-busy={busy}>
        <p className="visually-hidden">The advisor answered:</p>
        <ToolList tools={turn.tools} />
        {turn.text ? <AnswerMarkdown text={turn.text} /> : busy && <Loading label="Thinking…" />}
        {turn.reservedCredits !== null && busy && <p className="muted">Up to {credits(turn.reservedCredits)} credits held for this answer.</p>}
        {busy && (
          <button type="button" className="button button--secondary button--small" onClick={onStop}>
            Stop
          </button>
        )}
        {turn.phase === "stopped" && <p className="notice">Stopped. What was written so far is kept.</p>}
        {turn.error?.code === "credit_limit" && <p className="notice">{turn.error.message}</p>}
        {turn.phase === "failed" && turn.refusal && <TurnProblem code={turn.refusal.code} message={turn.refusal.message} provider={provider} />}
        {turn.phase === "failed" && turn.error && <TurnProblem code={turn.error.code} message={turn.error.message} provider={provider} onRetry={onRetry} />}
        <UsageLine usage={turn.usage} />
      </li>
    </>
  );
}

function ConversationList({ activeId }: { activeId: string | undefined }) {
  const list = useInfiniteQuery({
    queryKey: listKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.api.advisor.conversations.$get({ query: pageParam ? { cursor: pageParam } : {} })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = (list.data?.pages ?? []).flatMap((p) => p.conversations);
  return (
    <nav className="advisor__list" aria-label="Conversations">
      <Link to="/advisor" className="button button--small">
        New conversation
      </Link>
      {list.isPending ? (
        <Loading label="Loading conversations…" />
      ) : list.isError ? (
        <ErrorAlert error={list.error} title="Could not load your conversations." />
      ) : items.length === 0 ? (
        <p className="muted">No conversations yet.</p>
      ) : (
        <ul>
          {items.map((c) => (
            <li key={c.id}>
              <NavLink to={`/advisor/${c.id}`} className="advisor__item" aria-current={c.id === activeId ? "page" : undefined}>
                <span>{c.title}</span>
                <span className="muted">{formatDateTime(c.updatedAt)}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button type="button" className="button button--secondary button--small" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          More
        </button>
      )}
    </nav>
  );
}

/** The first screen: what to ask, and, while sharing is off, that answers about the journal need it on. */
function FirstScreenHint() {
  const settings = useQuery({ queryKey: ["advisor", "settings"], queryFn: () => unwrap(api.api.advisor.settings.$get()) });
  return (
    <>
      <p className="muted">Ask about your own record: win rate by weekday, your worst setups, what a losing month had in common.</p>
      {settings.data && !settings.data.shareJournal && (
        <p className="alert" role="note">
          Sharing is off, so the advisor cannot read your trades and answers general questions only. Turn on “Share my journal with the
          advisor” to ask about your own record.
        </p>
      )}
    </>
  );
}

function ShareSwitch() {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ["advisor", "settings"], queryFn: () => unwrap(api.api.advisor.settings.$get()) });
  const save = useMutation({
    mutationFn: (shareJournal: boolean) => unwrap(api.api.advisor.settings.$put({ json: { shareJournal } })),
    onSuccess: (data) => queryClient.setQueryData(["advisor", "settings"], data),
  });
  const id = useId();
  // The switch shows the choice at once (a controlled checkbox must change in the click's own render).
  const [choice, setChoice] = useState<boolean | null>(null);
  return (
    <div className="share-switch">
      <input
        id={id}
        type="checkbox"
        checked={choice ?? settings.data?.shareJournal ?? false}
        disabled={!settings.data || save.isPending}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          setChoice(next);
          save.mutate(next, { onSettled: () => setChoice(null) });
        }}
        aria-describedby={`${id}-hint`}
      />
      <label htmlFor={id}>Share my journal with the advisor</label>
      <p id={`${id}-hint`} className="field__hint">
        When on, the advisor reads your trades, statistics and cash to answer, and what it reads is sent to your model provider with
        your question. When off, it answers general questions only.
      </p>
      <ErrorAlert error={save.error} title="Could not save this setting." />
    </div>
  );
}

function ModelPicker({ value, onChange, disabled }: { value: string; onChange(provider: string, model: string): void; disabled?: boolean }) {
  const models = useQuery({ queryKey: ["advisor", "models"], queryFn: () => unwrap(api.api.advisor.models.$get()) });
  const id = useId();
  const providers = models.data?.providers ?? [];
  const options = providers.flatMap((p) => (p.models ?? [p.defaultModel]).map((m) => ({ provider: p.provider, model: m })));
  if (value && !options.some((o) => choiceOf(o.provider, o.model) === value)) {
    const [provider = "", model = ""] = value.split(" ");
    options.unshift({ provider: provider as (typeof options)[number]["provider"], model });
  }
  return (
    <div className="field field--inline">
      <label htmlFor={id}>Model</label>
      <select
        id={id}
        value={value}
        disabled={disabled || !models.data}
        onChange={(e) => {
          const [provider = "", model = ""] = e.currentTarget.value.split(" ");
          onChange(provider, model);
        }}
      >
        {providers.map((p) => (
          <optgroup key={p.provider} label={PROVIDER_NAMES[p.provider] ?? p.provider}>
            {options
              .filter((o) => o.provider === p.provider)
              .map((o) => (
                <option key={o.model} value={choiceOf(o.provider, o.model)}>
                  {o.model}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}

function Composer({ busy, onAsk, initial }: { busy: boolean; onAsk(text: string): void; initial?: string }) {
  const [text, setText] = useState(initial ?? "");
  const id = useId();
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || busy) return;
    onAsk(text.trim());
    setText("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey) submit();
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        Your question
      </label>
      <textarea
        id={id}
        rows={3}
        maxLength={20_000}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        placeholder="Ask about your trading: “Why did I lose money on Fridays in March?”"
      />
      <button type="submit" className="button" disabled={busy || !text.trim()}>
        Ask
      </button>
    </form>
  );
}

export function AdvisorPage() {
  const { conversationId } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useInstanceConfig();
  const billingOn = config.data?.billing ?? false;
  const keys = useQuery({ queryKey: ["advisor", "keys"], queryFn: () => unwrap(api.api.advisor["provider-keys"].$get()) });
  const wallet = useQuery({ queryKey: walletKey, queryFn: () => unwrap(api.api.billing.wallet.$get()), enabled: billingOn });
  const conversation = useQuery({
    queryKey: conversationKey(conversationId ?? ""),
    queryFn: () => unwrap(api.api.advisor.conversations[":id"].$get({ param: { id: conversationId! } })),
    enabled: Boolean(conversationId),
  });
  const [choice, setChoice] = useState("");
  // The conversation on screen: the route's, or the one this page just created (before the route follows).
  const [activeId, setActiveId] = useState(conversationId);
  const activeRef = useRef(conversationId);

  const onFinished = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: listKey });
    void queryClient.invalidateQueries({ queryKey: walletKey });
  }, [queryClient]);
  const { turn, ask, stop, clear, busy } = useTurn({ onFinished });

  // Another conversation opened (a link, back/forward): what was on screen belongs to the old one.
  useEffect(() => {
    if (conversationId === activeRef.current) return;
    activeRef.current = conversationId;
    setActiveId(conversationId);
    clear();
  }, [conversationId, clear]);

  // A finished turn stays on screen as it streamed (its stored copy is hidden below) while the stored messages
  // are fetched again, so the next question finds it in the history. After Stop, the server needs a moment to
  // store the partial answer.
  useEffect(() => {
    if (!turn || !activeId || turn.phase === "asking" || turn.phase === "streaming" || turn.refusal) return;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: conversationKey(activeId) }), turn.phase === "stopped" ? 1000 : 0);
    return () => clearTimeout(timer);
  }, [turn?.phase, turn?.refusal, activeId, queryClient]);

  const create = useMutation({
    mutationFn: (input: { provider?: string; model?: string }) =>
      unwrap(api.api.advisor.conversations.$post({ json: input as { provider?: "openai" | "anthropic" | "gemini" | "openrouter"; model?: string } })),
  });
  const patch = useMutation({
    mutationFn: (input: { provider: string; model: string }) =>
      unwrap(
        api.api.advisor.conversations[":id"].$patch({
          param: { id: activeId! },
          json: input as { provider: "openai" | "anthropic" | "gemini" | "openrouter"; model: string },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: conversationKey(activeId!) });
      void queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.api.advisor.conversations[":id"].$delete({ param: { id } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      void navigate("/advisor");
    },
  });

  const onAsk = async (text: string) => {
    let id = activeId;
    if (!id) {
      const [provider, model] = choice ? choice.split(" ") : [];
      const created = await create.mutateAsync(provider && model ? { provider, model } : {}).catch(() => null);
      if (!created) return;
      id = created.id;
      activeRef.current = id;
      setActiveId(id);
      void queryClient.invalidateQueries({ queryKey: listKey });
      void navigate(`/advisor/${id}`, { replace: false });
    }
    void ask(text, id);
  };

  if (keys.isPending) return <Loading label="Loading the advisor…" />;
  if (keys.data && keys.data.keys.length === 0) {
    return (
      <>
        <PageHeader title="Advisor" />
        <EmptyState title="Add a model key to start" action={<Link to="/settings/keys" className="button">Add a key</Link>}>
          <p>
            The advisor answers on your own model provider account: OpenAI, Anthropic, Google Gemini or OpenRouter. Save a key in
            Settings and come back here.
          </p>
        </EmptyState>
      </>
    );
  }

  const current = conversation.data?.conversation;
  const provider = current?.provider ?? choice.split(" ")[0] ?? keys.data?.keys[0]?.provider ?? "";
  const pickerValue = current ? choiceOf(current.provider, current.model) : choice || (keys.data?.keys[0] ? choiceOf(keys.data.keys[0].provider, keys.data.keys[0].defaultModel) : "");
  // While a turn is on screen, its stored question and answer (a refetch may bring them) are not shown twice.
  const stored = (conversation.data?.messages ?? []) as StoredMessage[];
  const live = turn?.messageId ? stored.findIndex((m) => m.id === turn.messageId) : -1;
  const messages = live > 0 ? stored.slice(0, live - 1) : stored;
  const outOfCredits = billingOn && wallet.data !== undefined && wallet.data.available <= 0;

  return (
    <>
      <PageHeader title="Advisor">
        {billingOn && wallet.data && (
          <p className="muted" aria-live="polite">
            <Link to="/settings/billing">{credits(wallet.data.available)} credits</Link> available
          </p>
        )}
      </PageHeader>
      <div className="advisor">
        <ConversationList activeId={activeId} />
        <section className="advisor__chat" aria-label={current?.title ?? "New conversation"}>
          <div className="advisor__toolbar">
            <ModelPicker value={pickerValue} disabled={busy || patch.isPending} onChange={(p, m) => (activeId ? patch.mutate({ provider: p, model: m }) : setChoice(choiceOf(p, m)))} />
            {current && (
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={busy || remove.isPending}
                onClick={() => window.confirm(`Delete “${current.title}”? Its messages are removed for good.`) && remove.mutate(current.id)}
              >
                Delete conversation
              </button>
            )}
          </div>
          <ErrorAlert error={patch.error ?? remove.error ?? create.error} title="That did not work." />
          <ShareSwitch />
          {outOfCredits && (
            <p className="notice">
              You are out of credits: <Link to="/settings/billing">buy credits</Link> to ask the advisor.
            </p>
          )}
          {conversationId && conversation.isPending ? (
            <Loading label="Loading the conversation…" />
          ) : conversation.isError ? (
            <QueryView query={conversation} label="this conversation">
              {() => null}
            </QueryView>
          ) : (
            <ol className="messages" aria-label="Messages" aria-live="polite">
              {messages.map((m, i) => (
                <MessageView
                  key={m.id}
                  message={m}
                  onRetry={m.status === "failed" && i === messages.length - 1 && !busy ? () => void ask(messages[i - 1]?.text ?? "", activeId!) : undefined}
                />
              ))}
              {turn && <LiveTurn turn={turn} provider={provider} onStop={stop} onRetry={() => void ask(turn.question, activeId!)} />}
            </ol>
          )}
          {!conversationId && !turn && messages.length === 0 && <FirstScreenHint />}
          {/* A question prepared elsewhere (the journal's "Draft the recap"), in the box for the trader to send. */}
          <Composer busy={busy || create.isPending} onAsk={(text) => void onAsk(text)} initial={conversationId ? undefined : (searchParams.get("ask")?.slice(0, 2000) ?? undefined)} />
          <StatusMessage>{turn?.phase === "done" ? "Answer complete." : turn?.phase === "stopped" ? "Answer stopped." : ""}</StatusMessage>
        </section>
      </div>
    </>
  );
}
