import { execFile } from "node:child_process"
import { resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = resolve(import.meta.dirname, "../../..")
const tsx = resolve(root, "node_modules/.bin/tsx")

describe("the examples", { timeout: 120_000 }, () => {
  it("embed-core.ts serves a tool call through the embedded web handler", async () => {
    const output = await new Promise<string>((done, fail) =>
      execFile(tsx, ["examples/embed-core.ts"], { cwd: root, timeout: 100_000 }, (error, stdout, stderr) =>
        error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout)
      )
    )
    expect(output).toMatch(/^200 /)
    expect(output).toContain("Embedded")
  })
})
