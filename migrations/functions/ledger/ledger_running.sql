-- ledger_running: every ledger entry with its rank in its account's ledger (1 = oldest, in (occurred_at, id)
-- order) and the running balance after it, from the days before it (ledger_days) and its place in its day.
-- For whole-ledger reads (the CSV export, tests); a page reads the day totals itself (lib/ledger/ledger.ts).
CREATE OR REPLACE VIEW ledger_running AS
SELECT e.*, d.rank_base + e.day_rank AS rank, d.balance_base + e.day_balance AS balance_after
FROM ledger_entries e
JOIN (
  SELECT account_id, day,
    sum(entries) OVER w - entries AS rank_base,
    sum(total) OVER w - total AS balance_base
  FROM ledger_days
  WINDOW w AS (PARTITION BY account_id ORDER BY day)
) d ON d.account_id = e.account_id AND d.day = e.day;
