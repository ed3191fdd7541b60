#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (`tsc -b`: `npm run build` in the repository, and `npm ci` through its
// `prepare` script; an installed package ships it).
import { existsSync } from "node:fs"

const entry = new URL("../dist/bin.js", import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write("svc: not built (no packages/server/dist/bin.js); run `npm run build` first\n")
  process.exit(1)
}
// Source maps stay off unless asked for (NODE_OPTIONS=--enable-source-maps): Node then reads and keeps the map of
// every module it loads, about 15 MB of memory and a tenth of a second of start-up, for stack traces that name the
// TypeScript lines instead of the compiled JavaScript's (which tsc keeps close to them).
await import(entry.href)
