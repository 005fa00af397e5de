import { PageHeader } from "../../components/ui.tsx";

export function AccountsPage() {
  return <PageHeader title="Accounts" />;
}
