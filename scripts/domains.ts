// The import graph among lib's domains (docs/architecture.md, "Layers"): each folder of lib/ is a domain, each
// file at lib's root one of its own. tests/node/domains.test.ts fails when the graph has a cycle; `npm run
// domains` prints the graph's cycles with the imports that make them. Type-only imports count: a type cycle
// ties domains as surely as a call does.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export type Edge = { from: string; to: string; file: string; target: string; names: string[]; typeOnly: boolean };

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** The relative imports of one file (static, re-exports and dynamic): the file each names, with what it takes. */
function importsOf(path: string): Array<{ target: string; names: string[]; typeOnly: boolean }> {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, false);
  const out: Array<{ target: string; names: string[]; typeOnly: boolean }> = [];
  const add = (spec: ts.Expression | undefined, names: string[], typeOnly = false) => {
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith(".")) out.push({ target: resolve(dirname(path), spec.text), names, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const names = [
        ...(clause?.name ? [clause.name.text] : []),
        ...(clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements.map((e) => e.name.text) : []),
        ...(clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings) ? ["*"] : []),
      ];
      const bindings = clause?.namedBindings;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, names, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((e) => e.name.text) : ["*"], node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], ["import()"]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, ["import()"], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The domain of a file under `root`: its first folder, or the file's own name at the root. */
const domainOf = (root: string, path: string) => {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, "");
};

/** The edges between different domains of lib (or of another root shaped like it). */
export function domainEdges(root: string): Edge[] {
  const edges: Edge[] = [];
  for (const path of sources(root)) {
    for (const { target, names, typeOnly } of importsOf(path)) {
      if (relative(root, target).startsWith("..")) continue;
      const from = domainOf(root, path);
      const to = domainOf(root, target);
      if (from !== to) edges.push({ from, to, file: relative(root, path), target: relative(root, target), names, typeOnly });
    }
  }
  return edges;
}

/** The graph's cycles: each strongly connected set of two or more domains (Tarjan), with the edges inside it. */
export function cycles(edges: Edge[]): Array<{ domains: string[]; edges: Edge[] }> {
  const next = new Map<string, Set<string>>();
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) found.push(set.sort());
    }
  };
  for (const v of [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort()) if (!index.has(v)) connect(v);
  return found.map((domains) => ({ domains, edges: edges.filter((e) => domains.includes(e.from) && domains.includes(e.to)) }));
}

export const LIB = fileURLToPath(new URL("../lib", import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // --runtime: the imports that load code only (what a bundle carries), type-only imports left out.
  const found = cycles(domainEdges(LIB).filter((e) => !process.argv.includes("--runtime") || !e.typeOnly));
  if (!found.length) console.log("lib's domains import one another without a cycle.");
  for (const c of found) {
    console.log(`a cycle through ${c.domains.length} domains: ${c.domains.join(", ")}`);
    for (const e of c.edges) console.log(`  ${e.from} -> ${e.to}: ${e.file} -> ${e.target} { ${e.names.join(", ")} }${e.typeOnly ? " (types)" : ""}`);
  }
  process.exitCode = found.length ? 1 : 0;
}
