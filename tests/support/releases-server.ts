// A local stand-in for GitHub's releases API: GET /repos/{owner}/{repo}/releases answers `releases` (in
// GitHub's shape, settable), or `status` when set, or never answers while `hang` is true. Counts requests.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type GitHubRelease = { name: string | null; tag_name: string; published_at: string | null; html_url: string; body: string | null; draft?: boolean; prerelease?: boolean };

export type ReleasesServer = {
  url: string;
  releases: GitHubRelease[];
  status: number | undefined;
  hang: boolean;
  requests: string[];
  close(): Promise<void>;
};

export function release(tag: string, publishedAt: string, body = `## ${tag}\n\n- Fixed things.`): GitHubRelease {
  return { name: `Release ${tag}`, tag_name: tag, published_at: publishedAt, html_url: `https://example.com/releases/${tag}`, body };
}

export async function startReleasesServer(): Promise<ReleasesServer> {
  const open = new Set<ServerResponse>();
  const state = { releases: [] as GitHubRelease[], status: undefined as number | undefined, hang: false, requests: [] as string[] };
  const server = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    state.requests.push(req.url ?? "");
    if (!/^\/repos\/[^/]+\/[^/]+\/releases(\?|$)/.test(req.url ?? "")) {
      res.writeHead(404, { "Content-Type": "application/json" });
      return res.end('{"message":"Not Found"}');
    }
    if (state.hang) return;
    res.writeHead(state.status ?? 200, { "Content-Type": "application/json" });
    res.end(state.status ? '{"message":"Server Error"}' : JSON.stringify(state.releases));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const self = state as ReleasesServer;
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () =>
    new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.close(() => resolve());
    });
  return self;
}
