#!/usr/bin/env node
// Runs the TypeScript sources directly, so the CLI needs no build step: tsx resolves the imports, and
// load-ts.mjs compiles our sources.
import { register } from "node:module"
import { register as registerTsx } from "tsx/esm/api"

registerTsx()
register("./load-ts.mjs", import.meta.url)
await import("../src/bin.ts")
