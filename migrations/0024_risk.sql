-- Risk in R (DESIGN.md section 10): a trade's plan (stop, target, planned risk) lives in its journal, which
-- follows the fills, with the trade's entry (the average price of its opening fills) kept beside it for R
-- reads; an account's default risk is 1R for trades that say nothing of their own. Existing journals get
-- their trade's entry now.
ALTER TABLE "accounts" ADD COLUMN "default_risk" numeric(28, 10);--> statement-breakpoint
ALTER TABLE "trade_journals" ADD COLUMN "stop_price" numeric(28, 10);--> statement-breakpoint
ALTER TABLE "trade_journals" ADD COLUMN "target_price" numeric(28, 10);--> statement-breakpoint
ALTER TABLE "trade_journals" ADD COLUMN "planned_risk" numeric(28, 10);--> statement-breakpoint
ALTER TABLE "trade_journals" ADD COLUMN "entry_price" numeric(28, 10);--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_default_risk_positive" CHECK ("accounts"."default_risk" is null or "accounts"."default_risk" > 0);--> statement-breakpoint
ALTER TABLE "trade_journals" ADD CONSTRAINT "trade_journals_plan_prices" CHECK (("trade_journals"."stop_price" is null or "trade_journals"."stop_price" >= 0) and ("trade_journals"."target_price" is null or "trade_journals"."target_price" >= 0));--> statement-breakpoint
ALTER TABLE "trade_journals" ADD CONSTRAINT "trade_journals_planned_risk_positive" CHECK ("trade_journals"."planned_risk" is null or "trade_journals"."planned_risk" > 0);--> statement-breakpoint
UPDATE "trade_journals" j SET "entry_price" = e.price
FROM (
  SELECT l.position_id, round(sum(l.quantity * l.price) / nullif(sum(l.quantity), 0), 10) AS price
  FROM (
    SELECT pf.position_id, pf.quantity, f.price,
      bool_and(pf.role IN ('open', 'add')) OVER (PARTITION BY pf.position_id ORDER BY pf.executed_at, pf.fill_id ROWS UNBOUNDED PRECEDING) AS opening
    FROM position_fills pf JOIN fills f ON f.id = pf.fill_id
    WHERE pf.position_id IN (SELECT position_id FROM trade_journals WHERE position_id IS NOT NULL)
  ) l
  WHERE l.opening
  GROUP BY l.position_id
) e
WHERE j.position_id = e.position_id;