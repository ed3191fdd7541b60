/**
 * The `svc` binary runs the compiled JavaScript (dist/, built by this run's global set-up): it says how to build
 * when there is none, and with Node's source maps on (`NODE_OPTIONS=--enable-source-maps`) its stack traces name our
 * TypeScript sources through the emitted source maps.
 */
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "@effect/vitest"

const server = resolve(import.meta.dirname, "..")
const scratch = mkdtempSync(join(tmpdir(), "svc-bin-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const node = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(process.execPath, [...args], { timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  )

describe("the svc binary", { timeout: 90_000 }, () => {
  it("prints its usage from the compiled JavaScript", async () => {
    const { code, stdout } = await node([join(server, "bin/svc.mjs"), "--help"])
    expect(code).toBe(0)
    expect(stdout).toContain("svc — ")
  })

  it("says in one line to build when there is no dist/", async () => {
    // A copy of the binary in a package directory with nothing built.
    mkdirSync(join(scratch, "unbuilt/bin"), { recursive: true })
    copyFileSync(join(server, "bin/svc.mjs"), join(scratch, "unbuilt/bin/svc.mjs"))
    const { code, stdout, stderr } = await node([join(scratch, "unbuilt/bin/svc.mjs"), "--help"])
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toBe("svc: not built (no packages/server/dist/bin.js); run `npm run build` first\n")
  })

  it("maps stack traces of the compiled JavaScript to the TypeScript sources when Node's source maps are on", async () => {
    // `runCommand` calls the given stdout synchronously, so its frame sits in the stack of what the callback throws.
    const program = [
      `const { Cli } = await import(${JSON.stringify(pathToFileURL(join(server, "dist/index.js")).href)})`,
      'await Cli.runCommand(["--help"], { stdout: () => { throw new Error("boom") } })',
      "  .then(() => console.log('no error'), (error) => console.log(error.stack))"
    ].join("\n")
    const { code, stdout } = await node(["--enable-source-maps", "--input-type=module", "--eval", program])
    expect(code).toBe(0)
    expect(stdout).toContain("Error: boom")
    expect(stdout).toMatch(new RegExp(`runCommand \\(${join(server, "src/cli/main.ts")}:\\d+:\\d+\\)`))
    expect(stdout).not.toContain("dist/cli/main.js")
  })
})
