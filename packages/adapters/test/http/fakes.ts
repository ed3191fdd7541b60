/**
 * Face tests without storage: the real `ToolServer` over a few stand-in tools, an in-memory rate
 * limiter and workspace, and an authenticator that knows three fixed tokens.
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import {
  AuthExpired,
  Authenticator,
  defineTool,
  fullAccess,
  makeToolRegistry,
  NotFound,
  type Principal,
  RateLimiter,
  readOnlyAccess,
  ToolRegistry,
  ToolServer,
  Workspace,
  WorkspacesRepo
} from "@svc/core"
import { Effect, Layer, Option, Schema } from "effect"
import { HttpFaceSettings, PublicUrl, ToolFacesLive } from "../../src/http/index.js"

/** The public base URL of the test server. */
export const BASE = "http://127.0.0.1:8787"

const workspace = new Workspace({
  id: "ws_1",
  name: "Test workspace",
  ownerId: "acct_1",
  isDefault: true,
  createdAt: new Date("2026-01-01T00:00:00.000Z")
})

const principal = (id: string, access: Principal["access"]): Principal => ({
  accountId: "acct_1",
  plan: "free",
  access,
  credential: { kind: "api_key", id },
  workspaceId: workspace.id,
  reach: "bound",
  rateLimitExempt: false
})

/** Bearer tokens the fake authenticator accepts. */
export const tokens = { full: "token-full", reader: "token-reader", spare: "token-spare" } as const

const principals = new Map<string, Principal>([
  [tokens.full, principal("key_full", fullAccess)],
  [tokens.reader, principal("key_reader", readOnlyAccess)],
  [tokens.spare, principal("key_spare", fullAccess)]
])

const NoteOut = Schema.Struct({ id: Schema.String, markdown: Schema.String })

const stubTools = [
  defineTool({
    name: "svc_create_note",
    description: "Create a note and return it.",
    input: { markdown: Schema.String.pipe(Schema.minLength(1)).annotations({ description: "The body." }) },
    output: { note: NoteOut },
    hints: { destructive: false, idempotent: false, openWorld: false },
    handler: (input, context) =>
      Effect.map(context.workspace, () => ({ note: { id: "note_1", markdown: input.markdown } }))
  }),
  defineTool({
    name: "svc_get_note_markdown",
    description: "Read a note.",
    input: { noteId: Schema.String.annotations({ description: "Note id." }) },
    output: { note: NoteOut },
    hints: { destructive: false, idempotent: true, openWorld: false },
    handler: (input) =>
      input.noteId === "note_1"
        ? Effect.succeed({ note: { id: "note_1", markdown: "# Hello" } })
        : Effect.fail(new NotFound({ message: `no note ${input.noteId}` }))
  }),
  defineTool({
    name: "svc_list_tags",
    description: "A tool whose storage has fallen over.",
    input: {},
    output: {},
    hints: { destructive: false, idempotent: true, openWorld: false },
    handler: () => Effect.die(new Error("secret stack detail: connection refused"))
  })
]

/** Counts takes per key with no clock: enough to show where the limit bites. */
const countingLimiter = Layer.sync(RateLimiter, () => {
  const counts = new Map<string, number>()
  return {
    take: (key, limit) =>
      Effect.sync(() => {
        const count = (counts.get(key) ?? 0) + 1
        counts.set(key, count)
        return { allowed: count <= limit, retryAfterMs: 42_000 }
      })
  }
})

const workspaces = Layer.succeed(WorkspacesRepo, {
  insert: () => Effect.void,
  findById: (id) => Effect.succeed(id === workspace.id ? Option.some(workspace) : Option.none()),
  findDefault: () => Effect.succeed(Option.some(workspace)),
  listByOwner: () => Effect.succeed({ rows: [workspace], next: undefined }),
  insertStore: () => Effect.succeed(true),
  findStore: () => Effect.succeed(Option.none()),
  findStoreByHandle: () => Effect.succeed(Option.none())
})

const authenticator = Layer.succeed(
  Authenticator,
  Authenticator.make({
    authenticate: (token) => {
      const found = token === undefined ? undefined : principals.get(token)
      return found ? Effect.succeed(found) : Effect.fail(new AuthExpired({ message: "the bearer token is not valid" }))
    }
  })
)

/** The core services the faces need, over the stand-ins. */
export const fakeCore = Layer.mergeAll(
  ToolServer.Default.pipe(
    Layer.provideMerge(Layer.succeed(ToolRegistry, makeToolRegistry(stubTools))),
    Layer.provide(Layer.mergeAll(workspaces, countingLimiter))
  ),
  authenticator
)

/** A web handler serving every tool face over the stand-ins; `settings` overrides the transport settings. */
export const makeFakeHandler = (settings?: Partial<HttpFaceSettings["Type"]>) =>
  HttpLayerRouter.toWebHandler(
    ToolFacesLive.pipe(
      Layer.provide(fakeCore),
      Layer.provide(PublicUrl.layer(BASE)),
      Layer.provide(
        settings === undefined
          ? HttpFaceSettings.Default
          : Layer.succeed(HttpFaceSettings, { maxBodyBytes: 1024 * 1024, ...settings })
      )
    ),
    { disableLogger: true }
  )
