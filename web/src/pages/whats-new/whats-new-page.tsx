// "What's new": the instance's release notes (GET /api/changelog), newest first, as safe markdown (raw HTML
// shown as text, no images, links open outside the app). Opening the page marks them read.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Markdown from "markdown-to-jsx/react";
import { useEffect, type ReactNode } from "react";
import { api, unwrap } from "../../api/client.ts";
import { keys, useChangelog } from "../../api/queries.ts";
import { EmptyState, PageHeader, QueryView } from "../../components/ui.tsx";
import { formatDate } from "../../lib/format.ts";

function ExternalLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (href && /^https?:\/\//i.test(href))
    return (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  return <>{children}</>;
}

const OPTIONS = { disableParsingRawHTML: true, forceBlock: true, overrides: { a: ExternalLink, img: () => null } };

export function WhatsNewPage() {
  const queryClient = useQueryClient();
  const changelog = useChangelog();
  const viewed = useMutation({
    mutationFn: () => unwrap(api.api.changelog.viewed.$post()),
    onSuccess: () => queryClient.setQueryData(keys.changelog, (old: typeof changelog.data) => (old ? { ...old, unread: 0 } : old)),
  });
  const loaded = changelog.isSuccess;
  const { mutate } = viewed;
  useEffect(() => {
    if (loaded) mutate();
  }, [loaded, mutate]);
  return (
    <>
      <PageHeader title="What's new" />
      <QueryView query={changelog} label="the release notes">
        {({ releases, stale, shipped }) =>
          releases.length === 0 ? (
            <EmptyState title="No releases yet">
              <p>Release notes appear here when a new version is published.</p>
            </EmptyState>
          ) : (
            <>
              {shipped ? (
                <p className="muted">The release notes this instance was installed with: the project's release list cannot be reached from here.</p>
              ) : (
                stale && <p className="muted">These notes may be out of date: the release list could not be refreshed just now.</p>
              )}
              {releases.map((r) => (
                <article key={r.tag} className="panel release">
                  <h2>
                    {r.url ? (
                      <a href={r.url} target="_blank" rel="noopener noreferrer">
                        {r.name}
                      </a>
                    ) : (
                      r.name
                    )}
                  </h2>
                  <p className="muted">
                    {r.tag} · {formatDate(r.publishedAt)}
                  </p>
                  <div className="answer">
                    <Markdown options={OPTIONS}>{r.body || "No notes for this release."}</Markdown>
                  </div>
                </article>
              ))}
            </>
          )
        }
      </QueryView>
    </>
  );
}
