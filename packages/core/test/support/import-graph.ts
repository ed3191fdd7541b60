import madge from "madge"
import type { ImportGraph } from "./import-cycles.js"

/**
 * The import graph of every `.ts` file under `folder`, type-only imports included (a type import ties modules as
 * much as a value import when reading or moving them), and the imports that resolved to no file.
 */
export const importGraphOf = async (folder: string, tsConfig: string) => {
  const scanned = await madge(folder, {
    fileExtensions: ["ts"],
    tsConfig,
    detectiveOptions: { ts: { skipTypeImports: false } }
  })
  const graph: ImportGraph = scanned.obj()
  return { graph, unresolved: scanned.warnings().skipped }
}
