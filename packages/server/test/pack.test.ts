/**
 * The four packages as a team gets them from the registry: packed with `npm pack` (from the dist/ this run's global
 * set-up built), installed from the tarballs into a project outside the repository, and used there as published:
 * the `svc` binary, the server it starts, and a TypeScript program embedding the core (no HTTP), type-checked
 * against the installed declarations and run as JavaScript.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { cleanEnv, INSTALL_FLAGS, run, strictTsconfig, succeeded } from "./support/scratch-project.js"
import { startServer } from "./support/server-process.js"

const root = resolve(import.meta.dirname, "../../..")
const tsc = resolve(root, "node_modules/typescript/bin/tsc")
const workspaces = ["core", "adapters", "client", "server"]
const scratch = mkdtempSync(join(tmpdir(), "svc-pack-"))
const project = join(scratch, "embedder")
// Removing an installed project's node_modules took over a minute on a busy 2-core CI machine (the 60 s hook default).
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 300_000)

// A program as a team embedding the core writes it: the core's services over the adapters' storage, on an
// in-memory PGlite, in its own process; and the client checking a webhook delivery's signature. It imports the
// packages' area subpaths (examples/embed-core.ts shows the root namespaces), so the installed exports are checked.
const embedProgram = `import { createHmac } from "node:crypto"
import { CustomAiPortsNoModel } from "@svc/adapters/ai"
import { MediaLocalLive } from "@svc/adapters/media"
import { DatabaseConfig, databaseLayer, migrations, migrationsLayer, SqlReposLive } from "@svc/adapters/sql"
import { IdsLive, LinkPreviewOffline, RateLimiterMemory, SecretsLive } from "@svc/adapters/system"
import { Webhooks } from "@svc/client"
import { CoreLive } from "@svc/core"
import { Accounts } from "@svc/core/accounts"
import { SchedulingPortsLive } from "@svc/core/scheduling"
import { ApiKeys, AuthSettings } from "@svc/core/auth"
import { Effect, Layer } from "effect"

const storage = Layer.mergeAll(SqlReposLive, MediaLocalLive, RateLimiterMemory, migrationsLayer(migrations)).pipe(
  Layer.provideMerge(databaseLayer(DatabaseConfig.Pglite({ dataDir: undefined }))),
  Layer.merge(IdsLive),
  Layer.merge(SecretsLive),
  Layer.merge(LinkPreviewOffline)
)
const core = CoreLive.pipe(
  Layer.provideMerge(SchedulingPortsLive("http://127.0.0.1:8787")),
  Layer.provideMerge(storage),
  Layer.provideMerge(AuthSettings.Default),
  Layer.provideMerge(CustomAiPortsNoModel)
)

const program = Effect.gen(function* () {
  const { account } = yield* (yield* Accounts).create({
    email: "team@example.com",
    password: "a long password",
    plan: "starter"
  })
  const keys = yield* ApiKeys
  const { token } = yield* keys.create(account.id, { name: "embedded" })
  const principal = yield* keys.authenticate(token)
  const sameAccount: boolean = principal.accountId === account.id
  return { email: account.email, plan: principal.plan, sameAccount }
})

const body = JSON.stringify({
  id: "evt_embed",
  type: "customer.created",
  created_at: new Date().toISOString(),
  store: { handle: "demo" },
  data: { email: "ada@example.com" }
})
const timestamp = Date.now()
const signature = createHmac("sha256", "whsec_embed").update(\`\${timestamp}.\${body}\`).digest("hex")
const headers = {
  "x-svc-signature": \`sha256=\${signature}\`,
  "x-svc-timestamp": String(timestamp),
  "x-svc-event": "customer.created",
  "x-svc-event-id": "evt_embed"
}
const { event } = await Webhooks.verifyWebhook(body, headers, "whsec_embed")

const embedded = await Effect.runPromise(Effect.provide(program, core))
console.log(JSON.stringify({ ...embedded, webhook: event.id }))
`

const tsconfig = strictTsconfig(["embed.ts"])

// A backend on PostgreSQL that takes the core and the adapters alone: the embedded database and the GraphQL face are
// optional peers it did not install. Everything else loads and type-checks; asking for either says what to install.
const leanProgram = `import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import { Http, Sql } from "@svc/adapters"
import { MediaS3Live } from "@svc/adapters/media"
import { makeBlueskyPublisher } from "@svc/adapters/publisher"
import { Cause, Effect, Exit, Layer } from "effect"

const faces: unknown = Http.ToolFacesLive
// Only the GraphQL face, over no services: without its packages it never reads one.
const graphql = HttpLayerRouter.toWebHandler(Http.GraphqlRoutes as unknown as Layer.Layer<never, never, HttpLayerRouter.HttpRouter>, {
  disableLogger: true
})
const answer = await graphql.handler(new Request("http://lean.test/graphql", { method: "POST", body: "{}" }))
const embedded = await Effect.runPromiseExit(
  Effect.scoped(Layer.build(Sql.databaseLayer(Sql.DatabaseConfig.Pglite({ dataDir: undefined }))))
)
await graphql.dispose()
// Publishing to Bluesky and keeping media in S3 load their packages when used, and say which to install.
const bluesky = await Effect.runPromiseExit(
  makeBlueskyPublisher().verify("https://pds.invalid", { identifier: "me.invalid", appPassword: "x" })
)
const s3 = await Effect.runPromiseExit(
  Effect.scoped(
    Layer.build(
      MediaS3Live({ endpoint: "http://127.0.0.1:1", bucket: "b", region: "us-east-1", accessKeyId: "a", secretAccessKey: "s", forcePathStyle: true })
    )
  )
)
console.log(
  JSON.stringify({
    bluesky: Exit.isFailure(bluesky) ? (Cause.squash(bluesky.cause) as Error).message : "verified",
    s3: Exit.isFailure(s3) ? (Cause.squash(s3.cause) as Error).message : "built",
    faces: typeof faces,
    graphqlStatus: answer.status,
    graphql: await answer.json(),
    embedded: Exit.isFailure(embedded) ? (Cause.squash(embedded.cause) as Error).message : "started"
  })
)
`

describe("the packed packages, installed outside the repository", { timeout: 600_000 }, () => {
  it("pack and install from their tarballs", async () => {
    const tarballs = join(scratch, "tarballs")
    mkdirSync(tarballs)
    succeeded(
      "npm pack",
      await run(
        "npm",
        ["pack", "--pack-destination", tarballs, ...workspaces.flatMap((name) => ["--workspace", `packages/${name}`])],
        root
      )
    )
    const packed = readdirSync(tarballs).sort()
    expect(packed).toEqual([
      "svc-adapters-0.1.0.tgz",
      "svc-client-0.1.0.tgz",
      "svc-core-0.1.0.tgz",
      "svc-server-0.1.0.tgz"
    ])

    mkdirSync(project)
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "embedder", version: "1.0.0", private: true, type: "module" }, null, 2)
    )
    // Node's types as the team's own dependency, at the Node line the packages support.
    succeeded(
      "npm install",
      await run(
        "npm",
        ["install", ...INSTALL_FLAGS, ...packed.map((file) => join(tarballs, file)), "@types/node@20"],
        project
      )
    )
  })

  it("install the core and the adapters alone, with pg: the embedded database and GraphQL are asked for, not installed", async () => {
    const lean = join(scratch, "lean")
    mkdirSync(lean)
    writeFileSync(
      join(lean, "package.json"),
      JSON.stringify({ name: "lean", version: "1.0.0", private: true, type: "module" }, null, 2)
    )
    const tarballs = join(scratch, "tarballs")
    succeeded(
      "npm install",
      await run(
        "npm",
        [
          "install",
          ...INSTALL_FLAGS,
          join(tarballs, "svc-core-0.1.0.tgz"),
          join(tarballs, "svc-adapters-0.1.0.tgz"),
          "pg",
          "@types/node@20"
        ],
        lean
      )
    )
    const installed = readdirSync(join(lean, "node_modules"))
    expect(installed).not.toContain("graphql")
    expect(installed).not.toContain("@electric-sql")
    expect(installed).not.toContain("@modelcontextprotocol")
    for (const optional of ["sharp", "@atproto", "@aws-sdk"]) expect(installed).not.toContain(optional)
    writeFileSync(join(lean, "lean.ts"), leanProgram)
    writeFileSync(join(lean, "tsconfig.json"), JSON.stringify(strictTsconfig(["lean.ts"]), null, 2))
    succeeded("tsc", await run(process.execPath, [tsc, "-p", "tsconfig.json"], lean))
    const output = succeeded("node out/lean.js", await run(process.execPath, ["out/lean.js"], lean))
    const result = JSON.parse(output.trim().split("\n").at(-1) ?? "{}")
    expect(result.faces).toBe("object")
    expect(result.graphqlStatus).toBe(501)
    expect(result.graphql.errors[0].extensions.code).toBe("GRAPHQL_NOT_INSTALLED")
    expect(result.graphql.errors[0].message).toContain("npm install graphql graphql-yoga")
    expect(result.embedded).toContain("npm install @electric-sql/pglite @electric-sql/pglite-pgvector")
    expect(result.embedded).toContain("DATABASE_URL")
    expect(result.bluesky).toContain("npm install @atproto/api @atproto/common-web")
    expect(result.s3).toContain("npm install @aws-sdk/client-s3 @aws-sdk/lib-storage @aws-sdk/s3-request-presigner")
  })

  it("run `svc --help` from the installed binary", async () => {
    const help = succeeded("npx svc --help", await run("npx", ["svc", "--help"], project))
    expect(help).toContain("svc — ")
    expect(help).toContain("serve")
  })

  it("start `svc serve` from the installed package and answer /health", async () => {
    const server = await startServer(
      { DATA_DIR: join(scratch, "data") },
      {
        command: join(project, "node_modules/.bin/svc"),
        args: ["serve"],
        cwd: project,
        baseEnv: cleanEnv,
        timeoutMs: 90_000
      }
    )
    const output = server.output()
    const code = await server.stop()
    expect(output).toContain(`svc listening on ${server.baseUrl}`)
    expect(code).toBe(0)
  })

  it("embed the core (and check a webhook with the client) in a program type-checked against their declarations", async () => {
    writeFileSync(join(project, "embed.ts"), embedProgram)
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
    succeeded("tsc", await run(process.execPath, [tsc, "-p", "tsconfig.json"], project))
    const output = succeeded("node out/embed.js", await run(process.execPath, ["out/embed.js"], project))
    expect(JSON.parse(output.trim())).toEqual({
      email: "team@example.com",
      plan: "starter",
      sameAccount: true,
      webhook: "evt_embed"
    })
  })
})
