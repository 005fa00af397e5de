import { describe, expect, it } from "vitest";
import { JOBS } from "../../lib/jobs/index.ts";
import { groups } from "../../functions/groups.ts";
import { budgetOf, measureWorkerBundles, readWranglerToml, WORKER_GZIP_EXCEPTIONS } from "../../scripts/bench/worker-bundles.ts";

describe("wrangler.toml", () => {
  const toml = readWranglerToml();

  it("declares one Worker per endpoint group plus the jobs Worker", () => {
    expect(Object.keys(toml.env ?? {}).sort()).toEqual([...Object.keys(groups), "jobs"].sort());
  });

  it("routes every other /api/ path to the jobs Worker, so it gets the 404 envelope, not the zone's origin", () => {
    const patterns = (name: string) => (toml.env?.[name]?.routes ?? []).map((r) => r.pattern);
    expect(patterns("jobs")).toEqual(["journal.example.com/api/*"]);
    // Each group keeps a route of its own, more specific than the catch-all.
    for (const name of Object.keys(groups)) {
      expect(patterns(name).length, name).toBeGreaterThan(0);
      for (const pattern of patterns(name)) expect(pattern.length, pattern).toBeGreaterThan("journal.example.com/api/*".length);
    }
  });

  it("gives the jobs Worker a cron trigger for every job", () => {
    const crons = toml.env?.jobs?.triggers?.crons ?? [];
    for (const job of JOBS) expect(crons).toContain(job.cron);
  });

  it("keeps every Worker bundle at or under 250 KB gzip (the advisor under its own documented ceiling)", { timeout: 120_000 }, async () => {
    const { workers } = await measureWorkerBundles();
    expect(Object.keys(workers).length).toBeGreaterThan(0);
    expect(Object.keys(WORKER_GZIP_EXCEPTIONS)).toEqual(["advisor"]);
    for (const [name, bytes] of Object.entries(workers)) {
      expect(bytes, `${name} is ${bytes} bytes gzip`).toBeLessThanOrEqual(budgetOf(name));
    }
  });
});
