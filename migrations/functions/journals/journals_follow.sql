-- journals_follow(account, symbols): after the positions of these symbols of an account were rebuilt (fills
-- added, edited, deleted, imported, undone), every journal that lost its trade, whose trade was rewritten, or
-- that is detached, goes where its fills are:
-- - its fills are found again by fill id, by execution id, or by symbol, time to the second, side, quantity
--   and price (the duplicate rule: not when both carry different execution ids), so a re-import of the same
--   file or the same executions finds them;
-- - it goes to the trade that holds the most of them (ties: the earliest trade);
-- - a trade holds one journal: the one already on it keeps it, then the one with more of its fills, then
--   the one whose earlier trade opened first; a journal that finds no free trade is detached (kept, listed as
--   a detached note) and one that finds none at all too; a blank journal is removed instead;
-- - an attached journal's fills become its trade's fills, its snapshot (symbol, direction, times, net P&L,
--   and the entry price its R figures read) that trade's, and the trade it leaves joins its former trades
--   (old links follow it).
-- Rebuilt positions carry updated_at = now() (the transaction's time): that is how a rewritten trade is told.
-- Locks: none of its own; callers hold the account row.
CREATE OR REPLACE FUNCTION journals_follow(p_account uuid, p_symbols text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  cand uuid[];
  ids uuid[];
  targets uuid[];
  -- (journal, trade, how many of its fills the trade holds, when the trade opened), one row per pair
  h_j uuid[];
  h_p uuid[];
  h_n bigint[];
  h_o timestamptz[];
  taken uuid[];
  a_j uuid[] := '{}';
  a_p uuid[] := '{}';
  new_j uuid[];
  new_p uuid[];
BEGIN
  SELECT array_agg(j.id) INTO cand
  FROM trade_journals j LEFT JOIN positions p ON p.id = j.position_id
  WHERE j.account_id = p_account AND j.symbol = ANY(p_symbols)
    AND (j.position_id IS NULL OR p.updated_at = now());
  IF cand IS NULL THEN
    RETURN;
  END IF;

  WITH m AS (
    -- Each remembered fill, found again (at most one current fill per remembered one).
    SELECT DISTINCT jf.journal_id, x.id AS fill_id
    FROM journal_fills jf
    CROSS JOIN LATERAL (
      (SELECT f.id FROM fills f WHERE f.id = jf.fill_id AND f.account_id = p_account)
      UNION ALL
      (SELECT f.id FROM fills f
       WHERE jf.execution_id IS NOT NULL AND f.account_id = p_account AND f.execution_id = jf.execution_id)
      UNION ALL
      (SELECT f.id FROM fills f
       WHERE f.account_id = p_account AND f.symbol = jf.symbol
         AND f.executed_at >= jf.executed_at AND f.executed_at < jf.executed_at + interval '1 second'
         AND f.side = jf.side AND f.quantity = jf.quantity AND f.price = jf.price
         AND (f.execution_id IS NULL OR jf.execution_id IS NULL OR f.execution_id = jf.execution_id)
       ORDER BY f.executed_at, f.id LIMIT 1)
      LIMIT 1
    ) x
    WHERE jf.journal_id = ANY(cand)
  ),
  held AS (
    -- The trades holding them: a fill belongs to the last position opened at or before it in the replay's
    -- order, and a reversing fill also to the one before (positions_account_symbol_opened_idx).
    SELECT m.journal_id, c.id AS position_id, c.opened_at, count(*) AS n
    FROM m JOIN fills f ON f.id = m.fill_id
    CROSS JOIN LATERAL (
      SELECT p.id, p.opened_at FROM positions p
      WHERE p.account_id = p_account AND p.symbol = f.symbol AND (p.opened_at, p.open_fill_id) <= (f.executed_at, f.id)
      ORDER BY p.opened_at DESC, p.open_fill_id DESC LIMIT 2
    ) c
    WHERE EXISTS (SELECT 1 FROM position_fills pf WHERE pf.position_id = c.id AND pf.fill_id = f.id)
    GROUP BY m.journal_id, c.id, c.opened_at
  )
  SELECT array_agg(journal_id), array_agg(position_id), array_agg(n), array_agg(opened_at) INTO h_j, h_p, h_n, h_o FROM held;

  -- A trade whose journal is not being moved keeps it.
  SELECT coalesce(array_agg(o.position_id), '{}') INTO taken
  FROM trade_journals o WHERE o.position_id = ANY(coalesce(h_p, '{}')) AND NOT o.id = ANY(cand);

  -- Rounds: each unplaced journal asks for the free trade holding the most of its fills; where several ask
  -- for one trade, one wins it; the others ask again next round, for what is still free.
  LOOP
    WITH free AS (
      SELECT h.j, h.p, h.n, h.o FROM unnest(h_j, h_p, h_n, h_o) AS h(j, p, n, o)
      WHERE NOT h.j = ANY(a_j) AND NOT h.p = ANY(a_p) AND NOT h.p = ANY(taken)
    ),
    best AS (
      SELECT DISTINCT ON (f.j) f.j, f.p, f.n FROM free f ORDER BY f.j, f.n DESC, f.o, f.p
    ),
    ranked AS (
      SELECT b.j, b.p,
        row_number() OVER (PARTITION BY b.p
          ORDER BY (tj.position_id IS NOT DISTINCT FROM b.p) DESC, b.n DESC, tj.opened_at NULLS LAST, tj.created_at, tj.id) AS r
      FROM best b JOIN trade_journals tj ON tj.id = b.j
    )
    SELECT array_agg(j), array_agg(p) INTO new_j, new_p FROM ranked WHERE r = 1;
    EXIT WHEN new_j IS NULL;
    a_j := a_j || new_j;
    a_p := a_p || new_p;
  END LOOP;

  SELECT array_agg(c.id), array_agg(a.p) INTO ids, targets
  FROM unnest(cand) AS c(id) LEFT JOIN unnest(a_j, a_p) AS a(j, p) ON a.j = c.id;

  -- Journals that move or detach let go of their trade first: a trade holds one journal (a unique column).
  UPDATE trade_journals j SET position_id = NULL
  FROM unnest(ids, targets) AS t(id, target)
  WHERE j.id = t.id AND j.position_id IS NOT NULL AND j.position_id IS DISTINCT FROM t.target;

  UPDATE trade_journals j SET
    position_id = t.target,
    former_position_ids = CASE
      WHEN t.target IS NOT NULL AND j.last_position_id IS NOT NULL AND j.last_position_id <> t.target
        AND NOT j.last_position_id = ANY(j.former_position_ids)
      THEN j.former_position_ids || j.last_position_id ELSE j.former_position_ids END,
    last_position_id = coalesce(t.target, j.last_position_id),
    detached_at = CASE WHEN t.target IS NULL THEN coalesce(j.detached_at, now()) END,
    symbol = coalesce(p.symbol, j.symbol),
    direction = coalesce(p.direction, j.direction),
    opened_at = CASE WHEN p.id IS NULL THEN j.opened_at ELSE p.opened_at END,
    closed_at = CASE WHEN p.id IS NULL THEN j.closed_at ELSE p.closed_at END,
    net_pnl = CASE WHEN p.id IS NULL THEN j.net_pnl ELSE p.net_pnl END,
    fill_count = CASE WHEN p.id IS NULL THEN j.fill_count
      ELSE (SELECT count(*) FROM position_fills pf WHERE pf.position_id = p.id) END,
    entry_price = CASE WHEN p.id IS NULL THEN j.entry_price ELSE position_entry_price(p.id) END
  FROM unnest(ids, targets) AS t(id, target) LEFT JOIN positions p ON p.id = t.target
  WHERE j.id = t.id;

  -- An attached journal remembers its trade's fills as they are now; a detached one keeps what it had.
  DELETE FROM journal_fills jf USING unnest(ids, targets) AS t(id, target)
  WHERE jf.journal_id = t.id AND t.target IS NOT NULL;
  INSERT INTO journal_fills (journal_id, fill_id, symbol, side, quantity, price, executed_at, execution_id)
  SELECT t.id, f.id, f.symbol, f.side, f.quantity, f.price, date_trunc('second', f.executed_at), f.execution_id
  FROM unnest(ids, targets) AS t(id, target)
  JOIN position_fills pf ON pf.position_id = t.target
  JOIN fills f ON f.id = pf.fill_id
  WHERE t.target IS NOT NULL;

  DELETE FROM trade_journals j USING unnest(ids, targets) AS t(id, target)
  WHERE j.id = t.id AND t.target IS NULL AND journal_blank(j);
END;
$$;
