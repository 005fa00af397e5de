// The page a digest's "stop these emails" link opens (docs/digest.md): no session asked for. Opening it changes
// nothing (mail scanners open links); the button sends the same one-click POST a mail client does.
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { ErrorAlert, PageHeader, StatusMessage } from "../../components/ui.tsx";

export function DigestUnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const stop = useMutation({ mutationFn: () => unwrap(api.api.digest.unsubscribe.$post({ query: { token } })) });
  return (
    <>
      <PageHeader title="Stop the weekly digest" />
      {stop.isSuccess ? (
        <StatusMessage>Done: no more weekly digests. You can turn it on again in Settings, Digest.</StatusMessage>
      ) : (
        <section className="panel">
          <p>You will get no more weekly digest emails. Your journal and your other settings stay as they are.</p>
          <button type="button" className="button" onClick={() => stop.mutate()} disabled={stop.isPending || !token}>
            Stop the weekly digest
          </button>
          <ErrorAlert error={stop.error} title="Could not stop the digest." />
        </section>
      )}
    </>
  );
}
