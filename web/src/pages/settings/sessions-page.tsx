import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { useSignOut } from "../../components/app-shell.tsx";
import { ErrorAlert, PageHeader, QueryView } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { describeUserAgent } from "../../../../lib/auth/user-agent.ts";
import { SettingsTabs } from "../../components/settings-tabs.tsx";
import { DataTable } from "../../components/data-table.tsx";

export { describeUserAgent };

export function SessionsPage() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => unwrap(api.api.auth.sessions.$get()) });
  const signOut = useSignOut();
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.api.auth.sessions[":id"].$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.sessions }),
  });
  const revokeOthers = useMutation({
    mutationFn: () => unwrap(api.api.auth.sessions.$delete()),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.sessions });
      void queryClient.invalidateQueries({ queryKey: keys.accessTokens });
    },
  });

  return (
    <>
      <PageHeader title="Sessions" />
      <SettingsTabs />
      <p>
        Where you are signed in. Up to five sessions are kept; signing in again ends the oldest. Signing out everywhere else also revokes
        every access token.
      </p>
      <ErrorAlert error={revoke.error} title="Could not end the session." />
      <ErrorAlert error={revokeOthers.error} title="Could not end the other sessions." />
      <QueryView query={sessions} label="your sessions">
        {({ sessions: list }) => (
          <>
            {list.length > 1 && (
              <p>
                <button type="button" className="button button--secondary" disabled={revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
                  Sign out everywhere else
                </button>
              </p>
            )}
            <DataTable
              caption="Your sessions, newest first"
              hideCaption
              rows={list}
              rowKey={(s) => s.id}
              columns={[
                {
                  header: "Device",
                  cell: (s) => (
                    <>
                      {describeUserAgent(s.userAgent)}
                      {s.current && <span className="badge badge--open"> This device</span>}
                    </>
                  ),
                },
                { header: "Signed in", cell: (s) => formatDateTime(s.createdAt) },
                { header: "Last active", cell: (s) => formatDateTime(s.lastSeenAt) },
                {
                  header: "Actions",
                  hideHeader: true,
                  cell: (s) =>
                    s.current ? (
                      <button type="button" className="button button--secondary button--small" onClick={() => signOut.mutate()}>
                        Sign out
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="button button--secondary button--small"
                        disabled={revoke.isPending && revoke.variables === s.id}
                        onClick={() => revoke.mutate(s.id)}
                        aria-label={`End session: ${describeUserAgent(s.userAgent)}, signed in ${formatDateTime(s.createdAt)}`}
                      >
                        End session
                      </button>
                    ),
                },
              ]}
            />
          </>
        )}
      </QueryView>
    </>
  );
}
