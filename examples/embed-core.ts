/**
 * Embedding svc in your own backend: the whole service as one web handler (`Request` → `Response`)
 * over an in-memory database, mounted wherever your runtime takes a fetch-style handler.
 *
 *   npx tsx examples/embed-core.ts
 */
import { HttpLayerRouter } from "@effect/platform"
// Each package's index holds one namespace per area (`Accounts`, `Auth`, `Sql`, `Http`, …); the same areas are
// subpaths too (`import { ApiKeys } from "@svc/core/auth"`), which load only that area.
import { Ai, Http, HttpSender, Sql } from "@svc/adapters"
import { Accounts, Auth, Boards, CoreLive, Scheduling, toolServerLive, Workspace } from "@svc/core"
import { Storage } from "@svc/server"
import { Effect, Layer, ManagedRuntime } from "effect"

// The core over storage: PGlite in memory here; Sql.DatabaseConfig.Postgres({ url }) for a real database.
// HttpSender.HttpSenderLive is the SSRF-safe sender webhook test sends (and deliveries) go out through.
// You choose which areas' tools you serve: here the workspace, note and board tools (the svc server serves all).
const storage = Storage.storageLayer(Sql.DatabaseConfig.Pglite({ dataDir: undefined }))
const core = toolServerLive([Workspace.workspaceTools, Boards.noteTools, Boards.boardTools]).pipe(
  Layer.provideMerge(CoreLive),
  Layer.provideMerge(Scheduling.SchedulingPortsLive(process.env.PUBLIC_URL ?? "http://127.0.0.1:8787")),
  Layer.provideMerge(storage),
  Layer.provideMerge(Auth.AuthSettings.Default),
  Layer.provideMerge(HttpSender.HttpSenderLive),
  Layer.provideMerge(Ai.CustomAiPortsNoModel)
)

// One runtime holds the core; the web handler and your own code share it.
const runtime = ManagedRuntime.make(core)

const { token } = await runtime.runPromise(
  Effect.gen(function* () {
    const { account } = yield* (yield* Accounts.Accounts).create({
      email: "me@example.com",
      password: "a long password",
      plan: "starter"
    })
    return yield* (yield* Auth.ApiKeys).create(account.id, { name: "embedded" })
  })
)

const { handler, dispose } = HttpLayerRouter.toWebHandler(
  Http.ToolFacesLive.pipe(
    Layer.provide(Http.PublicUrl.layer("http://localhost")),
    Layer.provide(Http.HttpFaceSettings.Default),
    Layer.provide(Layer.succeedContext(await runtime.runPromise(Effect.context<Layer.Layer.Success<typeof core>>())))
  ),
  { disableLogger: true }
)

// Any fetch-style request works: this is what a Hono, Bun or Cloudflare route would pass in.
const response = await handler(
  new Request("http://localhost/v1/tools/svc_create_note", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ markdown: "# Embedded\n\nIt runs inside my backend." })
  })
)
console.log(response.status, await response.json())

await dispose()
await runtime.dispose()
