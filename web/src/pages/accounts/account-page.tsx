import { PageHeader } from "../../components/ui.tsx";

export function AccountPage() {
  return <PageHeader title="Account" />;
}
