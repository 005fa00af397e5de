// @ts-check
import tseslint from "typescript-eslint";

// Two rules carry the architecture: only lib/http (and the entrypoints in functions/) import hono,
// and only lib/config reads the environment.
export default tseslint.config(
  { ignores: ["node_modules/**", "dist/**", "web/dist/**", ".wrangler/**", "coverage/**", ".server/**", ".server-*/**", ".scratch/**", ".data/**"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Only lib/config reads the environment; take it from Config." },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='process'][property.value='env']", message: "Only lib/config reads the environment." },
        { selector: "VariableDeclarator[init.name='process'] > ObjectPattern > Property[key.name='env']", message: "Only lib/config reads the environment." },
        { selector: "ImportDeclaration[source.value=/^(node:)?process$/] ImportSpecifier[imported.name='env']", message: "Only lib/config reads the environment." },
      ],
    },
  },
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/http/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^hono($|/)", message: "Domain code in lib/ does not import Hono; only lib/http does." },
            { regex: "^@hono/", message: "Domain code in lib/ does not import Hono; only lib/http does." },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/config/**/*.ts"],
    rules: { "no-restricted-properties": "off" },
  },
);
