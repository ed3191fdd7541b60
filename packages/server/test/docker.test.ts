/**
 * The repository's `Dockerfile`, built and run as deploy/README.md tells a user to: the image serves `/ready` as the
 * unprivileged `node` user, a command runs in it, and `docker stop` drains it to exit code 0. The compose file is
 * checked by `docker compose config` where the compose plugin is installed. Needs a Docker daemon: without one this
 * says so on standard error and skips (no machine of ours has one yet; the note on issue 41 says so).
 */
import { execFile, execFileSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { resolve } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { dockerTool, skipWithout } from "../../adapters/test/support/external-tool.js"

const root = resolve(import.meta.dirname, "../../..")
const docker = await dockerTool()
const skip = skipWithout("the Docker image test", docker)
const tag = `svc-test-${randomBytes(4).toString("hex")}`

// The compose plugin is a separate install beside the daemon.
const composeMissing = (() => {
  if (skip) return true
  try {
    execFileSync("docker", ["compose", "version"], { stdio: "ignore", timeout: 15_000 })
    return false
  } catch {
    process.stderr.write("skipped: docker compose config needs the compose plugin (docker compose version)\n")
    return true
  }
})()

interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const dockerRun = (args: ReadonlyArray<string>, timeoutMs = 120_000, env: Record<string, string> = {}) =>
  new Promise<Ran>((done) =>
    execFile(
      "docker",
      [...args],
      { cwd: root, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    )
  )

const ok = (what: string, ran: Ran) => {
  expect(ran.code, `${what}:\n${ran.stdout}\n${ran.stderr}`).toBe(0)
  return ran.stdout.trim()
}

afterAll(async () => {
  if (skip) return
  await dockerRun(["rm", "-f", tag])
  await dockerRun(["rmi", "-f", tag])
})

describe.skipIf(skip)("the Docker image", { timeout: 1_200_000 }, () => {
  it("builds, serves /ready as a user other than root, runs a command, and drains on docker stop", async () => {
    ok("docker build", await dockerRun(["build", "--tag", tag, "."], 1_100_000))
    ok("docker run", await dockerRun(["run", "--detach", "--name", tag, "--publish", "127.0.0.1::8787", tag]))
    const port = ok("docker port", await dockerRun(["port", tag, "8787/tcp"]))
      .split(":")
      .at(-1)
    const deadline = Date.now() + 90_000
    let ready = 0
    while (ready !== 200 && Date.now() < deadline) {
      ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (response) => response.status,
        () => 0
      )
      if (ready !== 200) await new Promise((r) => setTimeout(r, 500))
    }
    expect(ready, (await dockerRun(["logs", tag])).stderr).toBe(200)
    expect(ok("id -u", await dockerRun(["exec", tag, "id", "-u"]))).not.toBe("0")

    const created = ok(
      "svc accounts create",
      await dockerRun([
        "exec",
        tag,
        "node",
        "/opt/svc/node_modules/@svc/server/bin/svc.mjs",
        "accounts",
        "create",
        "--email",
        "ada@example.com",
        "--password",
        "a long password",
        "--json"
      ])
    )
    expect(JSON.parse(created)).toMatchObject({ account: { email: "ada@example.com" } })

    ok("docker stop", await dockerRun(["stop", "--time", "45", tag], 60_000))
    expect(ok("exit code", await dockerRun(["inspect", "--format", "{{.State.ExitCode}}", tag]))).toBe("0")
  })

  it.skipIf(composeMissing)("has a compose file docker compose reads", async () => {
    const config = await dockerRun(["compose", "--file", "deploy/compose.yaml", "config", "--quiet"], 60_000, {
      SVC_SECRET_KEY: randomBytes(32).toString("base64")
    })
    ok("docker compose config", config)
  })
})
