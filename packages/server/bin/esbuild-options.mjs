// How our TypeScript is compiled, the same for the start-up bundle (bundle-ts.mjs) and the module-hook fallback
// (load-ts.mjs): the options esbuild reads from a tsconfig (class field semantics from `target`,
// `verbatimModuleSyntax`), as tsc reads them, for the running Node. No keepNames (tsx forces it on): it wraps every
// named function, closures made per request included, in a call that defines its `name`, and cost the tool server
// ~5 % of its calls per second in the bench. Without minifying, functions keep the names JavaScript gives them.
import { readFileSync } from "node:fs"

const { compilerOptions } = JSON.parse(readFileSync(new URL("../../../tsconfig.base.json", import.meta.url), "utf8"))

export const compileOptions = {
  format: "esm",
  target: `node${process.versions.node}`,
  tsconfigRaw: { compilerOptions }
}
