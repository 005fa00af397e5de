import { Link } from "react-router";
import { PageHeader } from "../components/ui.tsx";

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is nothing at this address. Go to <Link to="/dashboard">your dashboard</Link>.
      </p>
    </>
  );
}
