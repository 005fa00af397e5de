/** One bucket of R-multiples: [from, to) in R, null at an open tail. */
export type RBucket = { from: string | null; to: string | null; trades: number };

const label = (b: RBucket) => (b.from === null ? `below ${b.to} R` : b.to === null ? `${b.from} R and above` : `${b.from} to ${b.to} R`);

/**
 * How the trades with a 1R spread over R-multiples (0.5 R buckets, tails grouped) as a column chart whose
 * columns are the rows of a table: the text (bucket, count) is the data, the bar is decoration.
 */
export function RDistribution({ buckets, withRisk, trades }: { buckets: readonly RBucket[]; withRisk: number; trades: number }) {
  const max = Math.max(1, ...buckets.map((b) => b.trades));
  return (
    <>
      <p className="muted">
        {withRisk} of {trades} closed {trades === 1 ? "trade" : "trades"} with risk, by result in R.
      </p>
      <div className="table-wrap">
        <table className="r-dist">
          <caption className="visually-hidden">Closed trades by R-multiple, in 0.5 R buckets</caption>
          <thead>
            <tr>
              <th scope="col">Result</th>
              <th scope="col" className="num">
                Trades
              </th>
              <th scope="col" className="breakdown__bar-col">
                <span className="visually-hidden">Bar</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => {
              const tone = b.to !== null && Number(b.to) <= 0 ? "negative" : "positive";
              return (
                <tr key={`${b.from}:${b.to}`}>
                  <th scope="row">{label(b)}</th>
                  <td className="num">{b.trades}</td>
                  <td className="breakdown__bar-col" aria-hidden="true">
                    <span className={`breakdown__bar breakdown__bar--${tone}`} style={{ width: `${Math.round((b.trades / max) * 100)}%` }} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
