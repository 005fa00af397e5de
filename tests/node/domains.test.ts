// lib's domains import one another without a cycle (docs/architecture.md, "Layers"): scripts/domains.ts reads
// every relative import of lib (type-only, re-exports and dynamic ones included) and finds the strongly
// connected sets of its domains.
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, domainEdges, LIB } from "../../scripts/domains.ts";

/** A lib-shaped folder of `files` (path -> source). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "domains-"));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

describe("the import graph of lib's domains", () => {
  it("has no cycle", () => {
    const found = cycles(domainEdges(LIB));
    const said = found.map((c) => `${c.domains.join(" <-> ")}:\n${c.edges.map((e) => `  ${e.file} -> ${e.target} { ${e.names.join(", ")} }`).join("\n")}`).join("\n");
    expect(said).toBe("");
  });

  it("finds a planted cycle, through a type-only import, a re-export or a dynamic import, and the imports that make it", () => {
    const layered = {
      "money.ts": "export const cents = 100;\n",
      "ledger/ledger.ts": 'import { cents } from "../money.ts";\nimport type { Deps } from "../deps.ts";\nexport const entry = (d: Deps) => [d, cents];\n',
      "deps.ts": 'import type { Config } from "./config/index.ts";\nexport type Deps = { config: Config };\n',
      "config/index.ts": "export type Config = { port: number };\n",
    };
    expect(cycles(domainEdges(tree(layered)))).toEqual([]);
    for (const back of [
      'import type { entry } from "../ledger/ledger.ts";\nexport type Config = { port: number; e: typeof entry };\n',
      'export { entry } from "../ledger/ledger.ts";\nexport type Config = { port: number };\n',
      'export type Config = { port: number };\nexport const later = () => import("../ledger/ledger.ts");\n',
    ]) {
      const found = cycles(domainEdges(tree({ ...layered, "config/index.ts": back })));
      expect(found.map((c) => c.domains)).toEqual([["config", "deps", "ledger"]]);
      expect(found[0]!.edges.map((e) => `${e.file} -> ${e.target}`)).toContain("config/index.ts -> ledger/ledger.ts");
    }
  });
});
