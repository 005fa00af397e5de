import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: new URL("../..", import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => m.ruleId ?? "parse");
}

describe("the architecture lint rules", () => {
  it("refuse hono in domain code and allow it in lib/http and functions/", async () => {
    const code = 'import { Hono } from "hono";\nexport const app = new Hono();\n';
    expect(await ruleIds("lib/ledger/ledger.ts", code)).toContain("no-restricted-imports");
    expect(await ruleIds("lib/ledger/ledger.ts", 'import { cors } from "hono/cors";\nexport const c = cors;\n')).toContain(
      "no-restricted-imports",
    );
    expect(await ruleIds("lib/http/router.ts", code)).toEqual([]);
    expect(await ruleIds("functions/ledger.ts", code)).toEqual([]);
  });

  it("refuse reading the environment anywhere but lib/config", async () => {
    for (const code of [
      "export const port = process.env.PORT;\n",
      'export const port = process["env"]["PORT"];\n',
      "const { env } = process;\nexport const port = env.PORT;\n",
      'import { env } from "node:process";\nexport const port = env.PORT;\n',
    ]) {
      const ids = await ruleIds("functions/node.ts", code);
      expect(ids.some((id) => id === "no-restricted-properties" || id === "no-restricted-syntax")).toBe(true);
    }
    expect(await ruleIds("lib/config/index.ts", "export const port = process.env.PORT;\n")).toEqual([]);
  });
});
