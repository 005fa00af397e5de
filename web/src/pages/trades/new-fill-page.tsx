import { PageHeader } from "../../components/ui.tsx";

export function NewFillPage() {
  return <PageHeader title="Add a fill" />;
}
