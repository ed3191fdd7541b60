// Compiles our TypeScript sources for Node's module loader, as tsx would but with our compile options (no keepNames,
// see esbuild-options.mjs); tsx still resolves the imports. Used only where the start-up bundle cannot be written.
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"
import { compileOptions } from "./esbuild-options.mjs"

const options = { ...compileOptions, loader: "ts", sourcemap: "inline" }

export const load = async (url, context, nextLoad) => {
  if (!url.startsWith("file:") || url.includes("/node_modules/") || !/\.m?ts$/.test(new URL(url).pathname)) {
    return nextLoad(url, context)
  }
  const path = fileURLToPath(url)
  const { code } = await transform(await readFile(path, "utf8"), { ...options, sourcefile: path })
  return { format: "module", source: code, shortCircuit: true }
}
