#!/usr/bin/env node
// Runs the TypeScript sources with no build step: esbuild bundles them at start (bundle-ts.mjs, a fraction of a
// second) and Node loads the bundle. Where the bundle cannot be written (a read-only install), the sources are
// loaded through module hooks instead: tsx resolves the imports and load-ts.mjs compiles our sources. That works
// the same, with ~70 MB more memory.
import { bundleSources } from "./bundle-ts.mjs"

const entry = new URL("../src/bin.ts", import.meta.url)
const bundle = await bundleSources(entry)
if (bundle !== undefined) {
  // Stack traces name the TypeScript sources and lines, as they did under tsx.
  process.setSourceMapsEnabled(true)
  await import(bundle)
} else {
  process.stderr.write("svc: cannot write its start-up bundle; loading the sources through module hooks instead\n")
  const { register } = await import("node:module")
  const { register: registerTsx } = await import("tsx/esm/api")
  registerTsx()
  register("./load-ts.mjs", import.meta.url)
  await import(entry.href)
}
