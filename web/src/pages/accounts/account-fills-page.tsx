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
import { DataTable } from "../../components/data-table.tsx";

const PAGE_SIZE = 100;

const loadFills = (accountId: string, page: number) => unwrap(api.api.fills.$get({ query: { accountId, page: String(page), pageSize: String(PAGE_SIZE) } }));
type AccountFill = Awaited<ReturnType<typeof loadFills>>["fills"][number];

export function AccountFillsPage() {
  const { accountId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const account = useAccount(accountId);
  const fills = useQuery({
    queryKey: ["fills", accountId, page],
    queryFn: () => loadFills(accountId, page),
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
              <FillsTable fills={fills.data.fills} account={a} onOpen={fillActions.open} />
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

/** An account's fills, newest first: one number of decimals per column over the page's fills. */
function FillsTable({ fills, account, onOpen }: { fills: AccountFill[]; account: { timezone: string; currency: string }; onOpen: Parameters<typeof FillActionsCell>[0]["onOpen"] }) {
  const decimals = priceDecimals(fills.map((x) => x.price));
  const quantityPlaces = quantityDecimals(fills.map((x) => x.quantity));
  return (
    <DataTable
      caption="Fills of this account, newest first"
      hideCaption
      rows={fills}
      rowKey={(f) => f.id}
      columns={[
        { header: "Executed", className: "nowrap", cell: (f) => formatDateTime(f.executedAt, account.timezone) },
        { header: "Symbol", title: (f) => f.symbol, cell: (f) => symbolLabel(f.symbol) },
        {
          header: "Side",
          cell: (f) => (
            <>
              {f.side === "buy" ? "Buy" : "Sell"} <FillOrigin generated={f.generated} />
            </>
          ),
        },
        { header: "Quantity", num: true, cell: (f) => formatQuantity(f.quantity, quantityPlaces) },
        { header: "Price", num: true, cell: (f) => formatPrice(f.price, decimals) },
        { header: "Fees", num: true, cell: (f) => <Fees value={f.fees} estimated={f.feesEstimated} currency={account.currency} /> },
        {
          header: "Actions",
          hideHeader: true,
          ownCell: true,
          cell: (f) => <FillActionsCell fill={f} label={`${f.side} of ${formatNumber(f.quantity)} ${symbolLabel(f.symbol)} at ${formatPrice(f.price, decimals)}`} onOpen={onOpen} />,
        },
      ]}
    />
  );
}
