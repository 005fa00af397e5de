// Dependency audit of the production dependencies (`npm run audit`; .ci/run runs it before the tests): fails on a
// known high or critical advisory that is not recorded as accepted in .ci/audit-accepted.json (docs/operations.md,
// "Dependency audit"). An accepted advisory names its GHSA id, the package, why it does not apply to us, and a
// date after which it counts again. Where the registry's advisory service cannot be reached (a closed network
// whose npm mirror answers only reads), the audit says so and passes, unless run with --required.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export type Accepted = { id: string; package: string; reason: string; until: string };
type Via = string | { source?: number; name?: string; title?: string; url?: string; severity?: string };
export type AuditReport = { vulnerabilities?: Record<string, { name: string; severity: string; via: Via[] }>; error?: unknown; message?: string };

const SERIOUS = new Set(["high", "critical"]);

/** The GHSA id of an advisory URL (https://github.com/advisories/GHSA-xxxx-xxxx-xxxx). */
const ghsaOf = (url: string | undefined) => /GHSA-[\w-]+/i.exec(url ?? "")?.[0]?.toUpperCase() ?? null;

/** The serious advisories of a report that no live acceptance covers, one line each. */
export function auditProblems(report: AuditReport, accepted: readonly Accepted[], today: string): string[] {
  const live = new Set(accepted.filter((a) => a.until >= today).map((a) => `${a.package}|${a.id.toUpperCase()}`));
  const problems = new Set<string>();
  for (const vulnerability of Object.values(report.vulnerabilities ?? {})) {
    for (const via of vulnerability.via) {
      if (typeof via === "string" || !via.severity || !SERIOUS.has(via.severity)) continue;
      const id = ghsaOf(via.url) ?? String(via.source ?? "unknown");
      const pkg = via.name ?? vulnerability.name;
      if (live.has(`${pkg}|${id.toUpperCase()}`)) continue;
      problems.add(`${via.severity}: ${pkg} ${id} ${via.title ?? ""}`.trim());
    }
  }
  return [...problems].sort();
}

/** Why the report is not an audit (the service unreachable or refusing), or null when it is one. */
export function unavailable(report: AuditReport | null): string | null {
  if (!report) return "npm audit printed no report";
  if (report.vulnerabilities) return null;
  return typeof report.message === "string" ? report.message : "npm audit could not reach the advisory service";
}

function main(): number {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  let report: AuditReport | null = null;
  try {
    report = JSON.parse(run.stdout) as AuditReport;
  } catch {
    report = null;
  }
  const why = unavailable(report);
  if (why) {
    const required = process.argv.includes("--required");
    console.log(`dependency audit: not checked: ${why}${required ? "" : " (--required makes this a failure)"}`);
    return required ? 1 : 0;
  }
  const accepted = JSON.parse(readFileSync(new URL("../.ci/audit-accepted.json", import.meta.url), "utf8")) as Accepted[];
  const problems = auditProblems(report!, accepted, new Date().toISOString().slice(0, 10));
  if (problems.length) {
    console.log(`dependency audit: ${problems.length} high or critical advisory(ies) in production dependencies:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    console.log("Upgrade the package, or record why it does not apply in .ci/audit-accepted.json (docs/operations.md).");
    return 1;
  }
  console.log("dependency audit: no unaccepted high or critical advisory in production dependencies");
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
