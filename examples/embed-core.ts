/**
 * Embedding svc in your own backend: the whole service as one web handler (`Request` → `Response`)
 * over an in-memory database, mounted wherever your runtime takes a fetch-style handler.
 *
 *   npx tsx examples/embed-core.ts
 */
import { HttpLayerRouter } from "@effect/platform"
import { DatabaseConfig, HttpSenderLive } from "@svc/adapters"
import { HttpFaceSettings, PublicUrl, ToolFacesLive } from "@svc/adapters/http"
import {
  Accounts,
  ApiKeys,
  AuthSettings,
  boardTools,
  CoreLive,
  noteTools,
  toolServerLive,
  workspaceTools
} from "@svc/core"
import { Storage } from "@svc/server"
import { Effect, Layer, ManagedRuntime } from "effect"

// The core over storage: PGlite in memory here; DatabaseConfig.Postgres({ url }) for a real database.
// HttpSenderLive is the SSRF-safe sender webhook test sends (and deliveries) go out through.
// You choose which areas' tools you serve: here the workspace, note and board tools (the svc server serves all).
const storage = Storage.storageLayer(DatabaseConfig.Pglite({ dataDir: undefined }))
const core = toolServerLive([workspaceTools, noteTools, boardTools]).pipe(
  Layer.provideMerge(CoreLive),
  Layer.provideMerge(storage),
  Layer.provideMerge(AuthSettings.Default),
  Layer.provideMerge(HttpSenderLive)
)

// One runtime holds the core; the web handler and your own code share it.
const runtime = ManagedRuntime.make(core)

const { token } = await runtime.runPromise(
  Effect.gen(function* () {
    const { account } = yield* (yield* Accounts).create({
      email: "me@example.com",
      password: "a long password",
      plan: "starter"
    })
    return yield* (yield* ApiKeys).create(account.id, { name: "embedded" })
  })
)

const { handler, dispose } = HttpLayerRouter.toWebHandler(
  ToolFacesLive.pipe(
    Layer.provide(PublicUrl.layer("http://localhost")),
    Layer.provide(HttpFaceSettings.Default),
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
