import * as fs from "node:fs"
import * as http from "node:http"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { engineName, freshDatabase, svc, svcHere, svcJson } from "./support/environment.js"
import { type RunningServer, startServer } from "./support/server-process.js"

// What a user does on the default set-up: `svc serve` in one terminal, the admin commands in another. On the
// embedded engine they reach the server over `<DATA_DIR>/svc.sock`; on PostgreSQL they open the database beside it.

let env: Record<string, string> = {}
let dispose = async () => {}
let server: RunningServer | undefined
beforeAll(async () => {
  const database = await freshDatabase()
  env = { ...database.env, SVC_BOOTSTRAP: "false" }
  dispose = database.dispose
})
afterAll(async () => {
  if (server !== undefined && server.process.exitCode === null && server.process.signalCode === null) {
    await server.stop()
  }
  await dispose()
})

const json = async (args: ReadonlyArray<string>) => {
  const result = await svcJson(args, env)
  expect(result.stderr).toBe("")
  expect(result.code).toBe(0)
  return result.body
}

const api = async (method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${server?.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const listWorkspaces = (token: string) => api("POST", "/v1/tools/svc_list_workspaces", token, {})

const eventually = async (check: () => Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("not within the time")
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const dataDir = () => env.DATA_DIR ?? ""
const socketFile = () => join(dataDir(), "svc.sock")
const lockFile = () => join(dataDir(), "svc.lock")

const killHard = async (running: RunningServer) => {
  const exited = new Promise((done) => running.process.once("exit", done))
  running.process.kill("SIGKILL")
  await exited
}

describe(`admin commands beside a running server on ${engineName}`, { timeout: 240_000 }, () => {
  it("runs every admin command while the server runs, and the server serves what they did", async () => {
    server = await startServer(env)
    if (engineName === "PGlite") {
      const stat = fs.statSync(socketFile())
      expect(stat.isSocket()).toBe(true)
      expect(stat.mode & 0o777).toBe(0o600)
    }
    const email = "beside@example.com"

    const account = await json(["accounts", "create", "--email", email, "--password", "long password 1"])
    expect(account.account).toMatchObject({ email, plan: "free" })
    expect((await json(["plans", "set", "--email", email, "--plan", "starter"])).account.plan).toBe("starter")

    const key = await json(["keys", "create", "--email", email, "--name", "first"])
    expect((await listWorkspaces(key.token)).status).toBe(200)
    // The real binary, text output: the same lines as a command run on its own.
    const second = await svc(["keys", "create", "--email", email, "--name", "second"], env)
    expect(second.code).toBe(0)
    expect(second.stderr).toBe("")
    expect(second.stdout).toMatch(/^Created API key key_\w+ \(second\) for beside@example.com, access: full\b/)
    const secondToken = /^ {2}(svc_pat_\w+)$/m.exec(second.stdout)?.[1] ?? ""
    expect((await listWorkspaces(secondToken)).status).toBe(200)
    const listed = await json(["keys", "list", "--email", email])
    expect(listed.keys.map((k: { name: string }) => k.name).sort()).toEqual(["first", "second"])
    const secondId = listed.keys.find((k: { name: string }) => k.name === "second").id
    expect(await json(["keys", "revoke", secondId])).toEqual({ revoked: secondId })
    await eventually(async () => (await listWorkspaces(secondToken)).status === 401)
    expect((await listWorkspaces(key.token)).status).toBe(200)

    const customAi = await json(["custom-ais", "create", "--email", email, "--name", "Writing coach"])
    expect(customAi.id).toMatch(/^cai_/)
    const ais = await api("GET", "/store-app/v1/custom-ais", key.token)
    expect((ais.body.custom_ais as Array<{ id: string }>).map((a) => a.id)).toContain(customAi.id)
    const created = await api("POST", "/store-app/v1/products", key.token, {
      custom_ai_id: customAi.id,
      price_cents: 4900
    })
    expect(created.status).toBe(201)
    const product = (created.body.product as { id: string }).id
    expect(created.body.can_publish).toBe(false)
    const store = await json([
      "store",
      "set",
      "--email",
      email,
      "--support-email",
      "help@example.com",
      "--card-processor",
      "connected"
    ])
    expect(store.store).toMatchObject({ supportEmail: "help@example.com", cardProcessor: "connected" })
    expect((await api("GET", `/store-app/v1/products/${product}`, key.token)).body.can_publish).toBe(true)
    expect((await api("POST", `/store-app/v1/products/${product}/publish`, key.token)).status).toBe(200)
    const sale = await api("POST", "/store-app/v1/sales", key.token, {
      event: "sale",
      product,
      email: "buyer@example.com"
    })
    expect(sale.body).toEqual({ ok: true, status: "granted" })

    const cohort = await json(["cohorts", "create", "--email", email, "--product", product, "--name", "May"])
    expect(cohort.id).toMatch(/^coh_/)
    const cohorts = await api("GET", `/store-app/v1/products/${product}/cohorts`, key.token)
    expect((cohorts.body.cohorts as Array<{ name: string }>).map((c) => c.name)).toEqual(["May"])
    const tagged = await json(["customers", "tag", "--email", email, "--customer", "buyer@example.com", "--tag", "VIP"])
    expect(tagged).toMatchObject({ email: "buyer@example.com", tags: [{ name: "VIP" }] })
    const vip = await api("GET", "/store-app/v1/customers?tag=vip", key.token)
    expect(vip.body.data).toMatchObject([{ email: "buyer@example.com", tags: ["VIP"] }])

    // The server migrated when it started; `migrate` says so instead of opening the database a second time.
    expect(await json(["migrate"])).toEqual({ applied: [] })
    expect((await svcHere(["migrate"], env)).stdout).toBe("The database is up to date.\n")

    // Failures keep their exit codes and messages, in text and in JSON.
    const nobody = await svcHere(["keys", "list", "--email", "nobody@example.com"], env)
    expect(nobody).toMatchObject({ code: 1, stdout: "", stderr: "svc: no account with the email nobody@example.com\n" })
    const duplicate = await svcJson(["accounts", "create", "--email", email, "--password", "long password 1"], env)
    expect(duplicate.code).toBe(1)
    expect(JSON.parse(duplicate.stderr)).toEqual({
      ok: false,
      error: `an account with the email ${email} already exists`
    })
    const badPart = await svcHere(["keys", "create", "--email", email, "--part", "boards=write"], env)
    expect(badPart.code).toBe(2)
    expect(badPart.stderr).toContain("the level must be one of off, read, edit")
    expect((await svcHere(["frobnicate"], env)).code).toBe(2)
  })
})

describe.skipIf(engineName !== "PGlite")("the admin socket of an embedded server", { timeout: 240_000 }, () => {
  const post = (options: {
    readonly method?: string
    readonly path?: string
    readonly contentType?: string
    readonly body: string
  }) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = http.request(
        {
          socketPath: socketFile(),
          agent: false,
          method: options.method ?? "POST",
          path: options.path ?? "/v1/commands",
          headers: { "content-type": options.contentType ?? "application/json" }
        },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
          )
        }
      )
      request.on("error", reject)
      request.end(options.body)
    })

  it("refuses malformed requests cleanly and answers well-formed ones", async () => {
    if (server === undefined || server.process.exitCode !== null) server = await startServer(env)
    expect(
      await post({ body: JSON.stringify({ argv: ["keys", "list", "--email", "beside@example.com", "--json"] }) })
    ).toMatchObject({ status: 200, body: { exitCode: 0, stderr: [] } })
    const refusals = [
      post({ body: "{not json" }),
      post({ body: JSON.stringify({ argv: "keys list" }) }),
      post({ body: JSON.stringify({ argv: [1, 2] }) }),
      post({ body: JSON.stringify({ command: ["keys", "list"] }) }),
      post({ body: JSON.stringify({ argv: ["keys", "list"] }), contentType: "text/plain" }),
      post({ body: "", method: "GET" }),
      post({ body: "{}", path: "/other" }),
      post({ body: JSON.stringify({ argv: ["x".repeat(70_000)] }) })
    ]
    const answers = await Promise.all(refusals)
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 415, 405, 404, 413])
    for (const answer of answers) expect(answer.body).toEqual({ error: expect.any(String) })
    // The server is none the worse.
    expect(await svcHere(["keys", "list", "--email", "beside@example.com"], env)).toMatchObject({ code: 0, stderr: "" })
  })

  it("sends no command to a socket other users could open", async () => {
    if (server === undefined || server.process.exitCode !== null) server = await startServer(env)
    fs.chmodSync(socketFile(), 0o666)
    try {
      const refused = await svcHere(["keys", "list", "--email", "beside@example.com"], env)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(`socket ${socketFile()} is open to other users (mode 666)`)
    } finally {
      fs.chmodSync(socketFile(), 0o600)
    }
  })

  it("cleans the lock and socket a killed server left, says so, and runs the command itself", async () => {
    if (server === undefined || server.process.exitCode !== null) server = await startServer(env)
    const pid = server.process.pid
    await killHard(server)
    expect(fs.existsSync(socketFile())).toBe(true)
    expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe(String(pid))

    const listed = await svc(["keys", "list", "--email", "beside@example.com", "--json"], env)
    expect(listed.code).toBe(0)
    expect(listed.stderr).toBe(`svc: removed a stale lock left by pid ${pid} (no longer running)\n`)
    expect(JSON.parse(listed.stdout).keys).toHaveLength(2)
    expect(fs.existsSync(socketFile())).toBe(false)
    expect(fs.existsSync(lockFile())).toBe(false)
    // Nothing left to clean: no notice the second time.
    expect((await svcHere(["keys", "list", "--email", "beside@example.com"], env)).stderr).toBe("")

    // A server started over what a killed one left replaces its socket, and commands reach it again.
    server = await startServer(env)
    const killed = server.process.pid
    await killHard(server)
    server = await startServer(env)
    expect(server.output()).toContain(`removed a stale lock left by pid ${killed} (no longer running)`)
    expect(server.output()).toContain(`removed a stale admin socket ${socketFile()}`)
    const created = await json(["keys", "create", "--email", "beside@example.com", "--name", "after restart"])
    expect((await listWorkspaces(created.token)).status).toBe(200)

    // A clean stop removes the socket and the lock.
    expect(await server.stop()).toBe(0)
    expect(fs.existsSync(socketFile())).toBe(false)
    expect(fs.existsSync(lockFile())).toBe(false)
  })

  it("says clearly when the process holding the directory does not answer on its socket", async () => {
    const held = fs.mkdtempSync(join(dataDir(), "..", "svc-held-"))
    // A live process that is not a server of ours holds the lock (the test runner's parent).
    fs.writeFileSync(join(held, "svc.lock"), `${process.ppid}\n`)
    try {
      const text = await svcHere(["keys", "list", "--email", "x@example.com"], { DATA_DIR: held })
      expect(text.code).toBe(1)
      expect(text.stderr).toBe(
        `svc: the server (pid ${process.ppid}) holds the data directory ${held}, but its admin channel socket ${join(held, "svc.sock")} is missing; restart the server, or stop it to run the command here\n`
      )
      const asJson = await svcHere(["keys", "list", "--email", "x@example.com", "--json"], { DATA_DIR: held })
      expect(JSON.parse(asJson.stderr)).toMatchObject({ ok: false, error: expect.stringContaining("is missing") })

      const deep = join(held, "a-directory-name-long-enough-to-push-the-socket-path-past-what-unix-allows")
      fs.mkdirSync(deep)
      fs.writeFileSync(join(deep, "svc.lock"), `${process.ppid}\n`)
      const tooLong = await svcHere(["keys", "list", "--email", "x@example.com"], { DATA_DIR: deep })
      expect(tooLong.code).toBe(1)
      expect(tooLong.stderr).toContain("longer than the 103 bytes a Unix socket allows; use a shorter DATA_DIR")
      // The lock of a live process stays where it is.
      expect(fs.readFileSync(join(held, "svc.lock"), "utf8").trim()).toBe(String(process.ppid))
    } finally {
      fs.rmSync(held, { recursive: true, force: true })
    }
  })
})
