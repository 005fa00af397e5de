// On an option trade's page: the strategy it is a leg of, with a link (docs/options.md).
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { strategyName } from "./kinds.ts";

export function StrategyLink({ tradeId }: { tradeId: string }) {
  const query = { tradeId };
  const found = useQuery({ queryKey: keys.strategyList(query), queryFn: () => unwrap(api.api.strategies.$get({ query })) });
  const s = found.data?.strategies[0];
  if (!s) return null;
  return (
    <p className="notice">
      {s.legs.length > 1 ? `One of the ${s.legs.length} legs of ` : "A strategy of its own: "}
      <Link to={`/strategies/${s.id}`}>
        {s.underlying} · {strategyName(s)}
      </Link>
      .
    </p>
  );
}
