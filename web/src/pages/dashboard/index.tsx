import { PageHeader } from "../../components/ui.tsx";

/** Performance dashboard (equity curve, P&L calendar, summary statistics). Placeholder until it lands. */
export function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <p>Coming soon: your equity curve, a P&amp;L calendar and summary statistics.</p>
    </>
  );
}
