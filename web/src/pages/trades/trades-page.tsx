import { PageHeader } from "../../components/ui.tsx";

export function TradesPage() {
  return <PageHeader title="Trades" />;
}
