// The dependency audit's rule (scripts/audit.ts): a high or critical advisory in a production dependency fails
// unless .ci/audit-accepted.json records it, for that package, until a date not yet past; moderate ones and
// transitive pointers do not count twice; an unreachable advisory service is reported, not mistaken for a pass.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { auditProblems, unavailable, type Accepted, type AuditReport } from "../../scripts/audit.ts";

// The shape `npm audit --json` prints (npm 7 and later).
const REPORT: AuditReport = {
  vulnerabilities: {
    "left-pad": {
      name: "left-pad",
      severity: "critical",
      via: [{ source: 1001, name: "left-pad", title: "Prototype pollution", url: "https://github.com/advisories/GHSA-aaaa-bbbb-cccc", severity: "critical" }],
    },
    "some-parser": {
      name: "some-parser",
      severity: "high",
      via: [
        { source: 1002, name: "some-parser", title: "ReDoS", url: "https://github.com/advisories/GHSA-dddd-eeee-ffff", severity: "high" },
        { source: 1003, name: "some-parser", title: "Minor leak", url: "https://github.com/advisories/GHSA-gggg-hhhh-iiii", severity: "moderate" },
      ],
    },
    // A package vulnerable only through another: its `via` names it, and it is not counted again.
    wrapper: { name: "wrapper", severity: "critical", via: ["left-pad"] },
  },
};

describe("the dependency audit", () => {
  it("fails on each high or critical advisory once, and not on moderate ones", () => {
    expect(auditProblems(REPORT, [], "2026-11-26")).toEqual([
      "critical: left-pad GHSA-AAAA-BBBB-CCCC Prototype pollution",
      "high: some-parser GHSA-DDDD-EEEE-FFFF ReDoS",
    ]);
  });

  it("an accepted advisory passes until its date, for its package only", () => {
    const accepted: Accepted[] = [
      { id: "GHSA-dddd-eeee-ffff", package: "some-parser", reason: "we never parse untrusted input with it", until: "2026-12-31" },
      { id: "GHSA-aaaa-bbbb-cccc", package: "other-package", reason: "wrong package", until: "2027-01-01" },
    ];
    expect(auditProblems(REPORT, accepted, "2026-11-26")).toEqual(["critical: left-pad GHSA-AAAA-BBBB-CCCC Prototype pollution"]);
    // After its date it counts again.
    expect(auditProblems(REPORT, accepted, "2027-01-01")).toHaveLength(2);
    expect(auditProblems({ vulnerabilities: {} }, [], "2026-11-26")).toEqual([]);
  });

  it("tells an unreachable advisory service from a clean report", () => {
    expect(unavailable({ message: "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk" })).toMatch(/405/);
    expect(unavailable(null)).toMatch(/no report/);
    expect(unavailable({ vulnerabilities: {} })).toBeNull();
  });

  it("the project's accepted list is well formed: each entry names an advisory, a package, a reason and a date", () => {
    const accepted = JSON.parse(readFileSync(new URL("../../.ci/audit-accepted.json", import.meta.url), "utf8")) as Accepted[];
    expect(Array.isArray(accepted)).toBe(true);
    for (const a of accepted) {
      expect(a.id).toMatch(/^GHSA-[\w-]+$/i);
      expect(a.package).toMatch(/\S/);
      expect(a.reason.length).toBeGreaterThan(10);
      expect(a.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});
