import { PageHeader } from "../../components/ui.tsx";

export function SessionsPage() {
  return <PageHeader title="Sessions" />;
}
