#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (`tsc -b`: `npm run build` in the repository, and `npm ci` through its
// `prepare` script; an installed package ships it).
import { existsSync } from "node:fs"

const entry = new URL("../dist/bin.js", import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write("svc: not built (no packages/server/dist/bin.js); run `npm run build` first\n")
  process.exit(1)
}
// Stack traces name the TypeScript sources and lines, through the source maps tsc writes beside the JavaScript.
process.setSourceMapsEnabled(true)
await import(entry.href)
