// Debian's Chromium driven by playwright-core (`npx playwright install` cannot download browsers here;
// .ci/run installs the `chromium` package).
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this machine's
// closed network refuses.
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}
