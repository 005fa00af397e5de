// The account's trading rules this trade broke (docs/discipline.md, "Trading rules"), and its score.
import { Link } from "react-router";

type Compliance = { score: number; rules: number; broken: Array<{ ruleId: string; label: string; weight: "critical" | "important" | "nice" }> };

const WEIGHT = { critical: "critical", important: "important", nice: "nice to have" } as const;

export function RulesPanel({ compliance, accountId }: { compliance: Compliance | null; accountId: string }) {
  return (
    <section className="panel" aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      {compliance === null ? (
        <p className="muted">
          This account has no trading rules. <Link to={`/rules?account=${accountId}`}>Set some</Link>: the journal checks every trade against them afterwards.
        </p>
      ) : compliance.broken.length === 0 ? (
        <p className="positive">
          Kept all {compliance.rules} {compliance.rules === 1 ? "rule" : "rules"} of the account. Score {compliance.score} / 100.
        </p>
      ) : (
        <>
          <p className="negative">
            Broke {compliance.broken.length} of {compliance.rules} {compliance.rules === 1 ? "rule" : "rules"}. Score {compliance.score} / 100.
          </p>
          <ul aria-label="Rules broken">
            {compliance.broken.map((b) => (
              <li key={b.ruleId}>
                {b.label} <span className="muted">({WEIGHT[b.weight]})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        <Link to={`/rules?account=${accountId}`}>The account&apos;s rules</Link>
      </p>
    </section>
  );
}
