/**
 * The tool faces over the whole core on a test database, served twice from one core: as a web
 * handler (`HttpLayerRouter.toWebHandler`) and by a real Node HTTP server on a free port, so tests
 * can drive it with `fetch` or with the official MCP SDK client over the network.
 */
import { createServer } from "node:http"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { Access, Plan } from "@svc/core"
import { Context, Effect, Layer } from "effect"
import { HttpFaceSettings, PublicUrl, ToolFacesLive } from "../../src/http/index.js"
import { signUp, testCoreLayer } from "./core.js"

/** A signed-up account and the bearer token of its API key. */
export type TestUser = Effect.Effect.Success<ReturnType<typeof signUp>>

/** The running test service. */
export interface TestAppShape {
  /** Base URL of the Node server, e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  /** The same faces as a web handler (its public URL is `url` too). */
  readonly handler: (request: Request) => Promise<Response>
  /** Opens an account with an API key (full access unless `access` says otherwise). */
  readonly signUp: (options?: { readonly plan?: Plan; readonly access?: Access }) => Effect.Effect<TestUser>
}

/** The running test service; build it once per file with `layer(TestApp.layer, { excludeTestServices: true })`. */
export class TestApp extends Context.Tag("test/TestApp")<TestApp, TestAppShape>() {
  // The servers' fibers live in this layer; under a TestClock their sleeps and timeouts would never fire.
  static readonly layer = Layer.scoped(
    TestApp,
    Effect.gen(function* () {
      const core = yield* Layer.build(testCoreLayer())
      const server = yield* Layer.build(NodeHttpServer.layer(() => createServer(), { port: 0, host: "127.0.0.1" }))
      const address = Context.get(server, HttpServer.HttpServer).address
      if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("the test server is not on TCP")
      const url = `http://127.0.0.1:${address.port}`
      const faces = ToolFacesLive.pipe(
        Layer.provide(Layer.mergeAll(Layer.succeedContext(core), PublicUrl.layer(url), HttpFaceSettings.Default))
      )
      yield* Layer.build(
        HttpLayerRouter.serve(faces, { disableLogger: true, disableListenLog: true }).pipe(
          Layer.provide(Layer.succeedContext(server))
        )
      )
      const web = yield* Effect.acquireRelease(
        Effect.sync(() => HttpLayerRouter.toWebHandler(faces, { disableLogger: true })),
        (web) => Effect.promise(() => web.dispose())
      )
      return {
        url,
        handler: (request: Request) => web.handler(request),
        signUp: (options = {}) => signUp(options).pipe(Effect.provide(core), Effect.orDie)
      }
    })
  )
}
