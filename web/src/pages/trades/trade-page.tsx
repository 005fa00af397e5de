import { PageHeader } from "../../components/ui.tsx";

export function TradePage() {
  return <PageHeader title="Trade" />;
}
