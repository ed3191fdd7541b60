#!/usr/bin/env node
// The npm registry this project's machines reach serves only Linux builds of packages that ship
// one binary package per platform (biome, esbuild, rollup). npm then leaves the other platforms'
// optional dependencies out of package-lock.json, and `npm ci` refuses the lock as out of sync.
// This adds each missing optional platform package with the os/cpu/libc its name states, as a
// lock written on an unfiltered registry would have it, so `npm ci` works here and elsewhere.
// Run it after every `npm install` that changes the lock: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs"

const path = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(path, "utf8"))
const packages = lock.packages

const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "netbsd",
  "openbsd",
  "openharmony",
  "sunos",
  "win32",
  "aix",
  "cygwin"
]
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "mips64el", "ppc64", "riscv64", "s390x", "wasm32"]
const aliases = {
  win: "win32",
  32: "ia32",
  x86_64: "x64",
  aarch64: "arm64",
  loongarch64: "loong64",
  powerpc64le: "ppc64"
}

const platformOf = (name) => {
  const words = name
    .split("/")
    .pop()
    .split("-")
    .map((w) => aliases[w] ?? w)
  const os = words.find((w) => OS.includes(w))
  const cpu = words.find((w) => CPU.includes(w)) ?? (words.includes("wasm32") ? "wasm32" : undefined)
  const libc = words.includes("musl") ? "musl" : words.includes("gnu") && os === "linux" ? "glibc" : undefined
  return { os, cpu, libc }
}

let added = 0
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === "" ? "" : `${location}/`
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`]
    if (candidates.some((c) => packages[c])) continue
    const { os, cpu, libc } = platformOf(name)
    if (!os && !cpu) continue // not a platform package: leave it to npm
    const version = range.replace(/^[\^~=]/, "")
    packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {})
    }
    added += 1
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0))
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`complete-lockfile: added ${added} optional platform entries`)
