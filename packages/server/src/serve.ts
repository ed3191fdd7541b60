import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { HttpLayerRouter } from "@effect/platform"
import { AuthUrl, HttpFaceSettings, PublicUrl, ToolFacesLive } from "@svc/adapters/http"
import { TrashPurgeLive } from "@svc/core"
import { Effect, Layer } from "effect"
import { bootstrapDemoOwner } from "./bootstrap.js"
import { publicOrigin, ServerConfig } from "./config.js"
import { AppLive } from "./runtime.js"

/** Settings of the HTTP faces from the server configuration. */
const FaceSettingsLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) =>
    Layer.mergeAll(
      PublicUrl.layer(publicOrigin(config)),
      AuthUrl.layer(config.authUrl._tag === "Some" ? config.authUrl.value.href : publicOrigin(config)),
      Layer.succeed(HttpFaceSettings, {
        maxBodyBytes: 1024 * 1024,
        allowedOrigins: config.allowedOrigins.length > 0 ? config.allowedOrigins : undefined
      })
    )
  )
)

/** Prints the start-up banner and, on an empty database, creates the demo owner. */
const StartupLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const base = publicOrigin(config)
    if (config.bootstrap) yield* bootstrapDemoOwner(base)
    yield* Effect.logInfo(`svc listening on http://${config.host}:${config.port} (public URL ${base})`)
  })
)

/** The whole server: every face on one router, the core, storage, and the start-up work. */
export const ServerLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) =>
    // No log line per request: at thousands of calls a second it costs more than the call (defects still log).
    HttpLayerRouter.serve(ToolFacesLive, { disableLogger: true }).pipe(
      Layer.provide(NodeHttpServer.layer(createServer, { host: config.host, port: config.port })),
      // Provided, not merged: start-up work finishes before the port opens, so the first request sees it done.
      Layer.provide(Layer.merge(StartupLive, TrashPurgeLive())),
      Layer.provide(FaceSettingsLive),
      Layer.provide(AppLive)
    )
  )
)

/** Starts the server and keeps it up until SIGINT or SIGTERM, then closes it cleanly. */
export const runServer = () =>
  NodeRuntime.runMain(Layer.launch(ServerLive).pipe(Effect.tapErrorCause(Effect.logError)), {
    disableErrorReporting: true
  })
