// Compiles our TypeScript sources for Node's module loader, as tsx would but without esbuild's keepNames; tsx still
// resolves the imports. keepNames (fixed on in tsx) wraps every named function in a call that defines its `name`,
// also each closure made per request, and cost the tool server ~5 % of its calls per second in the bench. Without
// minifying, functions keep the names JavaScript gives them anyway.
import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"

// The options esbuild reads from a tsconfig (class field semantics from `target`, `verbatimModuleSyntax`), as tsc
// and tsx read them.
const { compilerOptions } = JSON.parse(readFileSync(new URL("../../../tsconfig.base.json", import.meta.url), "utf8"))
const options = {
  loader: "ts",
  format: "esm",
  target: `node${process.versions.node}`,
  sourcemap: "inline",
  tsconfigRaw: { compilerOptions }
}

export const load = async (url, context, nextLoad) => {
  if (!url.startsWith("file:") || url.includes("/node_modules/") || !/\.m?ts$/.test(new URL(url).pathname)) {
    return nextLoad(url, context)
  }
  const path = fileURLToPath(url)
  const { code } = await transform(await readFile(path, "utf8"), { ...options, sourcefile: path })
  return { format: "module", source: code, shortCircuit: true }
}
