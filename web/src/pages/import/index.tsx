import { PageHeader } from "../../components/ui.tsx";

/** The CSV import wizard (upload, map columns, preview, commit). Placeholder until it lands. */
export function ImportPage() {
  return (
    <>
      <PageHeader title="Import trades" />
      <p>Coming soon: import a CSV file from your broker, check the preview, then commit it.</p>
    </>
  );
}
