// The release notes a Node instance ships (Deps.shippedChangelog): its CHANGELOG.md, read when "What's new"
// cannot reach the releases source, dated by the file (when this version was installed).
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { resolveVersion } from "../health/index.ts";
import { ROOT } from "../paths.ts";

export function shippedChangelogReader(appVersion: string | null | undefined, path = join(ROOT, "CHANGELOG.md")) {
  return async (): Promise<{ markdown: string; version: string; modifiedAt: string } | null> => {
    try {
      const [markdown, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
      return { markdown, version: resolveVersion(appVersion) ?? "this version", modifiedAt: info.mtime.toISOString() };
    } catch {
      return null;
    }
  };
}
