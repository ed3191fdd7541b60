/**
 * Settings are read once, at the edge: the server's configuration (`packages/server`) and the adapters' configuration
 * modules read the environment; every service below them is handed its settings as a layer, with a default an
 * embedder gets without any environment.
 */
import { readdirSync, readFileSync } from "node:fs"
import { basename, dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const below = ["packages/core/src", "packages/adapters/src"]

/** A configuration module: a file named `config.ts`, or any file in a `config/` folder. */
const isConfigurationModule = (file: string) =>
  basename(file) === "config.ts" || dirname(file).split(sep).includes("config")

// The environment itself, effect's `Config` and `ConfigProvider` (a call of a lower-case member: `Config.string(…)`,
// not the type `Config.Config<A>`), and named imports from their modules.
const environmentRead = [
  /\bprocess\s*(\.\s*env\b|\[\s*["'`]env["'`]\s*\])/,
  /\bimport\.meta\.env\b/,
  /\bConfig(Provider)?\s*\.\s*[a-z]\w*\s*\(/,
  /^\s*import\s+(?!type\b)[^;]*\bfrom\s+["']effect\/Config(Provider)?["']/
]

const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line)

/** `<file>:<line>: <text>` for each line of `text` that reads the environment or `Config`. */
const environmentReads = (file: string, text: string): ReadonlyArray<string> =>
  text
    .split("\n")
    .flatMap((line, index) =>
      !isComment(line) && environmentRead.some((pattern) => pattern.test(line))
        ? [`${file}:${index + 1}: ${line.trim()}`]
        : []
    )

const sourcesBelowTheServer = () =>
  below.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .map((file) => relative(root, join(root, folder, file)))
  )

describe("settings at the edge", () => {
  it("no module of the core or the adapters but a configuration module reads the environment or `Config`", () => {
    const sources = sourcesBelowTheServer()
    expect(sources.length).toBeGreaterThan(300)
    const reads = sources
      .filter((file) => !isConfigurationModule(file))
      .flatMap((file) => environmentReads(file, readFileSync(join(root, file), "utf8")))
    expect(reads).toEqual([])
  })

  it("finds each way of reading, and lets comments and `Config` types through", () => {
    const source = [
      "// process.env in a comment is no read",
      "const a = process.env.SVC_X",
      'const b = process["env"]',
      'const c = Config.boolean("SVC_WEBHOOKS_ALLOW_LOOPBACK").pipe(Config.withDefault(false))',
      "const d = Config.option(",
      "const e: Config.Config<number> = f",
      "const g = ConfigProvider.fromEnv()",
      'import { string } from "effect/Config"',
      'import type { Config } from "effect/Config"'
    ].join("\n")
    expect(environmentReads("x.ts", source).map((read) => read.split(":")[1])).toEqual(["2", "3", "4", "5", "7", "8"])
  })

  it("counts config.ts files and config/ folders as configuration modules, and nothing else", () => {
    expect(isConfigurationModule("packages/adapters/src/http/config.ts")).toBe(true)
    expect(isConfigurationModule(join("packages", "adapters", "src", "config", "mail.ts"))).toBe(true)
    expect(isConfigurationModule("packages/adapters/src/http/oauth/settings.ts")).toBe(false)
    expect(isConfigurationModule("packages/adapters/src/http/ai-config.ts")).toBe(false)
  })
})
