import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useInstanceConfig } from "../../api/queries.ts";
import { ErrorAlert, PageHeader, QueryView, StatusMessage } from "../../components/ui.tsx";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import { SettingsTabs } from "../../components/settings-tabs.tsx";

const walletKey = ["billing", "wallet"] as const;
const historyKey = ["billing", "transactions"] as const;

/** Credits are whole numbers: "1,050". */
const credits = (n: number) => new Intl.NumberFormat().format(n);

const KIND_LABELS: Record<string, string> = {
  purchase: "Credit pack bought",
  charge: "Advisor answer",
  refund: "Refund",
  dispute: "Payment disputed",
  admin_grant: "Adjusted by an administrator",
};

/** Prices are integer cents: "$10.00". */
const price = (cents: number, currency: string) => formatMoney(String(cents / 100), currency.toUpperCase());

/**
 * After the hosted checkout: the credits arrive when the payment provider's webhook confirms the payment,
 * usually within seconds. Watches the history for this checkout session's purchase.
 */
function CheckoutReturn({ sessionId }: { sessionId: string }) {
  const [waitedLong, setWaitedLong] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedLong(true), 60_000);
    return () => clearTimeout(timer);
  }, []);
  const found = useQuery({
    queryKey: ["billing", "purchase", sessionId],
    queryFn: async () => {
      const page = await unwrap(api.api.billing.transactions.$get({ query: { limit: "25" } }));
      return page.transactions.find((m) => m.kind === "purchase" && m.reference === sessionId) ?? null;
    },
    refetchInterval: (q) => (q.state.data ? false : 2000),
  });
  if (found.data) return <p className="alert alert--success" role="status">Payment confirmed: {credits(found.data.amount)} credits added.</p>;
  return (
    <div className="alert" role="status">
      <p>Payment received. Waiting for the payment provider to confirm it…</p>
      {waitedLong && (
        <p>
          This is taking longer than usual. Your payment is safe: the credits appear here as soon as the provider confirms it,
          and you can leave this page meanwhile.
        </p>
      )}
    </div>
  );
}

export function BillingPage() {
  const [params] = useSearchParams();
  const config = useInstanceConfig();
  const wallet = useQuery({ queryKey: walletKey, queryFn: () => unwrap(api.api.billing.wallet.$get()), refetchInterval: params.get("session_id") ? 2000 : false });
  const packs = useQuery({ queryKey: ["billing", "packs"], queryFn: () => unwrap(api.api.billing.packs.$get()) });
  const subscription = useQuery({ queryKey: ["billing", "subscription"], queryFn: () => unwrap(api.api.billing.subscription.$get()) });
  const history = useInfiniteQuery({
    queryKey: historyKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.api.billing.transactions.$get({ query: pageParam ? { limit: "25", cursor: pageParam } : { limit: "25" } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const buy = useMutation({
    mutationFn: (packId: string) => unwrap(api.api.billing.checkout.$post({ json: { packId } })),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const upgrade = useMutation({
    mutationFn: () => unwrap(api.api.billing.subscription.checkout.$post()),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const portal = useMutation({
    mutationFn: () => unwrap(api.api.billing.subscription.portal.$post()),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const billingOn = config.data?.billing ?? false;
  const sessionId = params.get("checkout") === "success" ? params.get("session_id") : null;
  const movements = (history.data?.pages ?? []).flatMap((p) => p.transactions).filter((m) => m.kind !== "hold" && m.kind !== "release");

  return (
    <>
      <PageHeader title="Billing and credits" />
      <SettingsTabs />
      <p>
        The advisor uses credits when billing is on: one credit is one cent of what your model provider charges for an answer, plus
        the service's share. Credits never expire.
      </p>
      {sessionId && <CheckoutReturn sessionId={sessionId} />}
      {params.get("checkout") === "cancelled" && <p className="alert">Checkout cancelled: nothing was charged.</p>}

      <section className="panel" aria-labelledby="wallet-title">
        <h2 id="wallet-title">Your credits</h2>
        <QueryView query={wallet} label="your credits">
          {(w) => (
            <dl className="stats" aria-label="Credits">
              <div>
                <dt>Available</dt>
                <dd>{credits(w.available)}</dd>
              </div>
              <div>
                <dt>Balance</dt>
                <dd>{credits(w.balance)}</dd>
              </div>
              <div>
                <dt>Held for answers in progress</dt>
                <dd>{credits(w.reserved)}</dd>
              </div>
            </dl>
          )}
        </QueryView>
      </section>

      <section className="panel" aria-labelledby="packs-title">
        <h2 id="packs-title">Buy credits</h2>
        {config.isSuccess && !billingOn && <p>Buying credits is not available on this instance: its operator has not set up a payment provider.</p>}
        <ErrorAlert error={buy.error} title="Could not open the checkout." />
        <QueryView query={packs} label="the credit packs">
          {({ packs: list }) => (
            <ul className="pack-list">
              {list.map((p) => (
                <li key={p.id} className="pack">
                  <span className="pack__name">{p.name}</span>
                  <span className="pack__price">{price(p.priceCents, p.currency)}</span>
                  {billingOn && (
                    <button type="button" className="button" disabled={buy.isPending} onClick={() => buy.mutate(p.id)} aria-label={`Buy ${p.name} for ${price(p.priceCents, p.currency)}`}>
                      Buy
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryView>
        <StatusMessage>{buy.isPending ? "Opening the payment page…" : ""}</StatusMessage>
      </section>

      <section className="panel" aria-labelledby="plan-title">
        <h2 id="plan-title">Plan</h2>
        <ErrorAlert error={upgrade.error ?? portal.error} title="Could not open the payment provider." />
        <QueryView query={subscription} label="your plan">
          {(s) => (
            <>
              <p>
                You are on the <strong>{s.plan === "pro" ? "Pro" : "Free"}</strong> plan{s.status && s.plan === "pro" && s.status !== "active" ? ` (${s.status.replace("_", " ")})` : ""}.
              </p>
              {s.plan === "free" && config.data?.pro && (
                <>
                  {config.data.proPrice?.amountCents != null && config.data.proPrice.currency && (
                    <p>Pro: {price(config.data.proPrice.amountCents, config.data.proPrice.currency)} a {config.data.proPrice.interval ?? "month"}, no plan limits.</p>
                  )}
                  <button type="button" className="button" disabled={upgrade.isPending} onClick={() => upgrade.mutate()}>
                    Upgrade to Pro
                  </button>
                </>
              )}
              {s.portal && config.data?.billing && (
                <button type="button" className="button button--secondary" disabled={portal.isPending} onClick={() => portal.mutate()}>
                  Manage subscription and invoices
                </button>
              )}
              {s.plan === "free" && config.isSuccess && !config.data?.pro && <p className="muted">The Pro plan is not sold on this instance.</p>}
            </>
          )}
        </QueryView>
      </section>

      <section className="panel" aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        <QueryView query={history} label="your credit history">
          {() =>
            movements.length === 0 ? (
              <p className="muted">No credits bought or used yet.</p>
            ) : (
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Credit history, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">What</th>
                      <th scope="col" className="num">
                        Credits
                      </th>
                      <th scope="col" className="num">
                        Balance after
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {movements.map((m) => (
                      <tr key={m.id}>
                        <td className="nowrap">{formatDateTime(m.createdAt)}</td>
                        <td>{KIND_LABELS[m.kind] ?? m.kind}</td>
                        <td className={`num ${m.amount < 0 ? "negative" : "positive"}`}>{m.amount > 0 ? `+${credits(m.amount)}` : credits(m.amount)}</td>
                        <td className="num">{credits(m.balanceAfter)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryView>
        {history.hasNextPage && (
          <button type="button" className="button button--secondary" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
            Show older
          </button>
        )}
      </section>
    </>
  );
}
