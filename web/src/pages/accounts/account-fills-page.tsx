// An account's fills, newest first, each correctable and deletable (the trade page offers the same for one
// trade's fills). The trade a fill belongs to is rebuilt, and what the trader wrote on it follows the fills.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useAccount } from "../../api/queries.ts";
import { EmptyState, ErrorAlert, Loading, PageHeader, QueryView, ZoneNote } from "../../components/ui.tsx";
import { formatDateTime, formatNumber, formatPrice, formatQuantity, priceDecimals, quantityDecimals, symbolLabel } from "../../lib/format.ts";
import { Fees } from "../../components/fees.tsx";
import { FillActionPanel, FillActionsCell, FillOrigin, useFillActions } from "../trades/fill-editor.tsx";

const PAGE_SIZE = 100;

export function AccountFillsPage() {
  const { accountId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const account = useAccount(accountId);
  const fills = useQuery({
    queryKey: ["fills", accountId, page],
    queryFn: () => unwrap(api.api.fills.$get({ query: { accountId, page: String(page), pageSize: String(PAGE_SIZE) } })),
    placeholderData: keepPreviousData,
  });
  const fillActions = useFillActions();

  return (
    <QueryView query={account} label="the account">
      {(a) => (
        <>
          <p className="breadcrumb">
            <Link to="/accounts">Accounts</Link> / <Link to={`/accounts/${a.id}`}>{a.name}</Link> / Fills
          </p>
          <PageHeader title={`Fills of ${a.name}`}>
            <Link className="button" to={`/fills/new?accountId=${a.id}`}>
              Add a fill
            </Link>
          </PageHeader>
          <p className="muted">Times in {a.timezone}, the account's time zone. Correcting or deleting a fill rebuilds its trade; your notes follow the fills.</p>
          <FillActionPanel actions={fillActions} zone={a.timezone} />
          {fills.isPending ? (
            <Loading label="Loading fills…" />
          ) : fills.isError ? (
            <ErrorAlert error={fills.error} title="Could not load the fills." />
          ) : fills.data.fills.length === 0 ? (
            <EmptyState title="No fills yet" action={<Link className="button" to="/import">Import a CSV</Link>}>
              <p>Import your broker's file or add a fill by hand.</p>
            </EmptyState>
          ) : (
            <>
              <ZoneNote zone={a.timezone} />
              <div className="table-wrap">
                <table className="stack-table">
                  <caption className="visually-hidden">Fills of this account, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Executed</th>
                      <th scope="col">Symbol</th>
                      <th scope="col">Side</th>
                      <th scope="col" className="num">Quantity</th>
                      <th scope="col" className="num">Price</th>
                      <th scope="col" className="num">Fees</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {fills.data.fills.map((f, _i, page) => {
                      // One number of decimals per column, over the page's fills.
                      const decimals = priceDecimals(page.map((x) => x.price));
                      const quantityPlaces = quantityDecimals(page.map((x) => x.quantity));
                      const label = `${f.side} of ${formatNumber(f.quantity)} ${symbolLabel(f.symbol)} at ${formatPrice(f.price, decimals)}`;
                      return (
                        <tr key={f.id}>
                          <td data-label="Executed" className="nowrap">{formatDateTime(f.executedAt, a.timezone)}</td>
                          <td data-label="Symbol" title={f.symbol}>{symbolLabel(f.symbol)}</td>
                          <td data-label="Side">
                            {f.side === "buy" ? "Buy" : "Sell"} <FillOrigin generated={f.generated} />
                          </td>
                          <td data-label="Quantity" className="num">{formatQuantity(f.quantity, quantityPlaces)}</td>
                          <td data-label="Price" className="num">{formatPrice(f.price, decimals)}</td>
                          <td data-label="Fees" className="num">
                            <Fees value={f.fees} estimated={f.feesEstimated} currency={a.currency} />
                          </td>
                          <FillActionsCell fill={f} label={label} onOpen={fillActions.open} />
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <nav className="pager" aria-label="Fill pages">
                <button type="button" className="button button--secondary" disabled={page <= 1} onClick={() => setParams(page > 2 ? { page: String(page - 1) } : {})}>
                  Newer
                </button>
                <span>Page {page}</span>
                <button type="button" className="button button--secondary" disabled={!fills.data.hasMore} onClick={() => setParams({ page: String(page + 1) })}>
                  Older
                </button>
              </nav>
            </>
          )}
        </>
      )}
    </QueryView>
  );
}
