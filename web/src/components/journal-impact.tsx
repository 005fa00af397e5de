import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client.ts";

type Subject = { fillId: string } | { importId: string } | { accountId: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a confirmation must say about the trader's notes: how many journaled trades (and screenshots) the change
 * touches, and what becomes of them: kept (they follow the fills that remain, or wait under Detached notes) or,
 * when the account itself goes, deleted with it.
 */
export function JournalImpact({ subject, fate }: { subject: Subject; fate: "kept" | "deleted" }) {
  const impact = useQuery({
    queryKey: ["journals", "impact", subject],
    queryFn: () => unwrap(api.api.journals.impact.$get({ query: subject })),
  });
  if (impact.isPending) return <p className="muted">Checking your notes on these trades…</p>;
  if (impact.isError) return <p className="muted">Your notes are kept whatever happens to the fills.</p>;
  const { journaledTrades: n, screenshots: s } = impact.data;
  if (n === 0) return <p data-testid="journal-impact">No trade this touches has notes, tags or screenshots.</p>;
  const what = `${plural(n, "journaled trade", "journaled trades")}${s ? ` (with ${plural(s, "screenshot", "screenshots")})` : ""}`;
  return fate === "kept" ? (
    <p data-testid="journal-impact">
      <strong>{what}</strong> {n === 1 ? "is" : "are"} built from these fills. Nothing you wrote is deleted: the notes stay with what remains of
      {n === 1 ? " that trade" : " those trades"}, or are kept under <strong>Detached notes</strong> until the fills come back or you attach them.
    </p>
  ) : (
    <p data-testid="journal-impact">
      <strong>{what}</strong> (detached notes included) {n === 1 ? "is" : "are"} deleted with the account. Export your data first to keep them.
    </p>
  );
}
