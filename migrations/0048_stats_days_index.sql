-- The day totals' rows of the maintained statistics in order, with the columns the calendar, the daily equity
-- curve and the drawdown read: an index-only scan, where the table holds a day's totals row among its
-- symbols', hours' and setups' rows (about one table page per day at 100,000 trades).
CREATE INDEX "stats_groups_days" ON "stats_groups" USING btree ("account_id","day")
  INCLUDE ("net", "moved", "day_trades", "day_r", "day_with_risk", "dd_high", "dd_low", "dd_drop")
  WHERE grain = 'day' and dim = '' and one_r is null;
