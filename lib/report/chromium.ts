// The report's PDF on Node (docs/digest.md, "The printable report"): the report's HTML printed by a headless
// Chromium found on this machine (the Debian package `chromium`, or Google Chrome), as a browser's "Save as PDF"
// prints it. Node only: Workers have no processes to start (there the report page is printed by the reader's
// browser, and GET /api/reports/report.pdf answers 503). Chromium is started per file, two at a time at most,
// in a temporary profile that is removed after; the page has no script and loads nothing.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Where Debian, Ubuntu and Google put the browser. */
export const CHROMIUM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"] as const;
const TIMEOUT_MS = 60_000;
const AT_ONCE = 2;

export type PdfPrinter = (html: string) => Promise<Uint8Array>;

/** A printer on the first browser found, or undefined when this machine has none. */
export function chromiumPrinter(paths: readonly string[] = CHROMIUM_PATHS): PdfPrinter | undefined {
  const binary = paths.find((p) => existsSync(p));
  if (!binary) return undefined;
  let running = 0;
  const waiting: Array<() => void> = [];
  const turn = async () => {
    if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const done = () => {
    running--;
    waiting.shift()?.();
  };
  return async (html) => {
    await turn();
    const dir = await mkdtemp(join(tmpdir(), "journal-report-"));
    try {
      const page = join(dir, "report.html");
      const out = join(dir, "report.pdf");
      await writeFile(page, html, "utf8");
      await new Promise<void>((resolve, reject) => {
        execFile(
          binary,
          [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-pdf-header-footer",
            `--user-data-dir=${join(dir, "profile")}`,
            `--print-to-pdf=${out}`,
            pathToFileURL(page).href,
          ],
          { timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024 },
          (err) => (err ? reject(new Error(`Chromium could not print the report (${err.name}${"code" in err ? `: ${String(err.code)}` : ""})`)) : resolve()),
        );
      });
      return new Uint8Array(await readFile(out));
    } finally {
      await rm(dir, { recursive: true, force: true });
      done();
    }
  };
}
