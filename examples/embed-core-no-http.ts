/**
 * The svc core inside your own Effect program, with no HTTP at all: your code calls a tool through the tool server
 * (the path MCP and REST take, with its access, plan and rate-limit rules) and a core service directly, on a
 * database layer your app provides: its own `pg` pool when `DATABASE_URL` is set, else PGlite in memory.
 *
 *   npx tsx examples/embed-core-no-http.ts
 *   DATABASE_URL=postgres://user@127.0.0.1:5432/mydb npx tsx examples/embed-core-no-http.ts
 */
import { Ai, HttpSender, Sql } from "@svc/adapters"
import { Accounts, Auth, Boards, CoreLive, Scheduling, Store, toolServerLive, Tools, Workspace } from "@svc/core"
import { Console, Effect, Layer, Schema } from "effect"
import pg from "pg"

// ---------------------------------------------------------------------------------------------------------------
// The app's own database.

// svc's repositories read rows the same on PostgreSQL as on PGlite (`bigint` as a number, `date` as text): a pool
// that svc did not make takes svc's result parsers as its `types`.
/**
 * The app's PostgreSQL: a pool it makes (and ends when the program does), as svc's storage runs on it: an
 * `@effect/sql` client (also `PgClient`) whose interrupted statements are never cancelled, and the `LeanSql` runner.
 */
const appPostgres = (url: string) =>
  Sql.postgresLayerFromPool({
    acquire: Effect.acquireRelease(
      Effect.sync(() => new pg.Pool({ connectionString: url, max: 5, types: Sql.postgresResultTypes() })),
      (pool) => Effect.promise(() => pool.end())
    )
  })

const url = process.env.DATABASE_URL
/** What svc's storage runs on: the app's pool, or without `DATABASE_URL` svc's own PGlite in memory. */
const appDatabase = url ? appPostgres(url) : Sql.databaseLayer(Sql.DatabaseConfig.Pglite({ dataDir: undefined }))

// ---------------------------------------------------------------------------------------------------------------
// The core over it.

// Every storage port on that database, its migrations applied when the layer is built.
const storage = Layer.mergeAll(Sql.SqlPortsLive, Sql.migrationsLayer(Sql.migrations)).pipe(
  Layer.provideMerge(appDatabase)
)

// The core services, and a tool server serving the tools you choose (here the workspace and note tools).
// HttpSenderLive is the SSRF-safe sender webhook deliveries would go out through; nothing is served.
const core = toolServerLive([Workspace.workspaceTools, Boards.noteTools]).pipe(
  Layer.provideMerge(CoreLive),
  // Where scheduled posts can go (the workspace's own feed, at this public address) and the links people open to
  // connect social accounts.
  Layer.provideMerge(Scheduling.SchedulingPortsLive(process.env.PUBLIC_URL ?? "http://127.0.0.1:8787")),
  Layer.provideMerge(storage),
  Layer.provideMerge(Auth.AuthSettings.Default),
  Layer.provideMerge(HttpSender.HttpSenderLive),
  Layer.provideMerge(Ai.CustomAiPortsNoModel)
)

// ---------------------------------------------------------------------------------------------------------------
// The app's program.

// A tool answers plain data (`{ ok: true, ... }` or a tool failure): decode what you read from it.
const CreatedNote = Schema.Struct({ ok: Schema.Literal(true), note: Schema.Struct({ id: Schema.String }) })

const program = Effect.gen(function* () {
  yield* Console.log(`database: ${url ? "PostgreSQL through the app's own pg.Pool" : "PGlite in memory"}`)

  // A caller: an account and an API key of it. A tool call acts for a Principal, as a request over HTTP would.
  const { account } = yield* (yield* Accounts.Accounts).create({
    email: `app-${Date.now()}@example.com`,
    password: "a long password",
    plan: "starter"
  })
  const keys = yield* Auth.ApiKeys
  const { token } = yield* keys.create(account.id, { name: "in-process" })
  const principal = yield* keys.authenticate(token)

  // A tool, through the tool server: the same input and answer as `POST /v1/tools/svc_create_note`.
  const answer = yield* (yield* Tools.ToolServer).call(principal, "svc_create_note", {
    markdown: "# From my program\n\nNo HTTP in between."
  })
  const { note } = yield* Schema.decodeUnknown(CreatedNote)(answer)
  yield* Console.log(`tool svc_create_note: ${note.id}`)

  // A core service, directly: the note as the Notes service holds it.
  if (principal.workspaceId === null) return yield* Effect.dieMessage("an API key is always bound to a workspace")
  const stored = yield* (yield* Boards.Notes).get(principal.workspaceId, note.id)
  yield* Console.log(`Notes.get: ${stored.title} (${stored.characters} characters)`)

  // The store's services speak in domain values: typed queries in; records with Dates, no wire format, out. The
  // caller is the key's store, under the store API's rules (Starter plan or above, the key's Store access).
  const caller = yield* Store.resolveStoreCaller(principal, true)
  const emailList = yield* Store.StoreEmailList
  yield* emailList.add(caller, { email: "reader@example.com", name: "A reader", tags: ["newsletter"] })
  const page = yield* emailList.listPage(caller, {
    status: "subscribed",
    page: { limit: 10, after: undefined },
    created: {}
  })
  for (const contact of page.rows) {
    const tags = contact.tags.map((tag) => tag.name).join(", ")
    yield* Console.log(`StoreEmailList.listPage: ${contact.email} (${tags}) since ${contact.createdAt.getFullYear()}`)
  }

  // A refusal is a tagged error with a plain message and, where one helps, the next step as data, which your own
  // face says in its words (the store API says "GET /products lists them").
  const missing = yield* Effect.flip((yield* Store.StoreCatalog).get(caller, "prod_missing"))
  yield* Console.log(`${missing._tag}: ${missing.message}; next: ${missing.next?._tag ?? "none"}`)
})

// Building the layer opens the database and migrates it; when the program ends, the pool (or PGlite) closes.
await Effect.runPromise(program.pipe(Effect.provide(core)))
