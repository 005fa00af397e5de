import { describe, expect, it } from "vitest";
import { JOBS } from "../../lib/jobs/index.ts";
import { DIGEST_JOBS } from "../../lib/digest/job.ts";
import { groups } from "../../functions/groups.ts";
import { BROKERS_WORKER, measureWorkerBundles, MODEL_WORKERS, readWranglerToml, WORKER_GZIP_LIMIT_BYTES } from "../../scripts/bench/worker-bundles.ts";

describe("wrangler.toml", () => {
  const toml = readWranglerToml();

  it("declares one Worker per endpoint group plus the jobs Worker, the advisor's model Workers and the brokers Worker", () => {
    expect(Object.keys(toml.env ?? {}).sort()).toEqual([...Object.keys(groups), "jobs", ...MODEL_WORKERS, BROKERS_WORKER].sort());
  });

  it("binds the accounts and jobs Workers to the brokers Worker's Brokers entrypoint; the brokers Worker has no route", () => {
    for (const name of ["accounts", "jobs"]) {
      const services = (toml.env?.[name] as { services?: Array<{ binding: string; service: string; entrypoint: string }> }).services ?? [];
      expect(services.map((s) => [s.binding, s.service, s.entrypoint]), name).toEqual([["BROKERS", "journal-brokers", "Brokers"]]);
    }
    expect(toml.env?.[BROKERS_WORKER]?.routes).toBeUndefined();
    expect((toml.env?.[BROKERS_WORKER] as { name?: string }).name).toBe("journal-brokers");
  });

  it("binds the advisor Worker to each model Worker's Model entrypoint; the model Workers have no route", () => {
    const services = (toml.env?.advisor as { services?: Array<{ binding: string; service: string; entrypoint: string }> }).services ?? [];
    expect(services.map((s) => [s.binding, s.service, s.entrypoint])).toEqual([
      ["MODEL_OPENAI", "journal-model-openai", "Model"],
      ["MODEL_ANTHROPIC", "journal-model-anthropic", "Model"],
      ["MODEL_GEMINI", "journal-model-gemini", "Model"],
    ]);
    for (const name of MODEL_WORKERS) {
      expect(toml.env?.[name]?.routes, name).toBeUndefined();
      expect((toml.env?.[name] as { name?: string }).name).toBe(`journal-${name}`);
    }
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
    // The digest's job runs in the digest Worker (lib/digest/job.ts), on its own trigger.
    for (const job of DIGEST_JOBS) expect(toml.env?.digest?.triggers?.crons ?? []).toContain(job.cron);
  });

  it("keeps every Worker bundle at or under 250 KB gzip, the advisor and its model Workers included", { timeout: 180_000 }, async () => {
    const { workers } = await measureWorkerBundles();
    expect(Object.keys(workers).length).toBeGreaterThan(0);
    for (const [name, bytes] of Object.entries(workers)) {
      expect(bytes, `${name} is ${bytes} bytes gzip`).toBeLessThanOrEqual(WORKER_GZIP_LIMIT_BYTES);
    }
  });
});
