/**
 * The tool faces over the whole core on a test database, served twice from one core: as a web
 * handler (`HttpLayerRouter.toWebHandler`) and by a real Node HTTP server on a free port, so tests
 * can drive it with `fetch` or with the official MCP SDK client over the network.
 */
import { createServer } from "node:http"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  type Access,
  type CatalogEntry,
  catalogByName,
  makeToolRegistry,
  type Plan,
  type Tool,
  ToolRegistry,
  type ToolRegistryShape,
  ToolServer
} from "@svc/core"
import { Context, Effect, Layer, type Scope } from "effect"
import {
  DEFAULT_MAX_BODY_BYTES,
  HttpFaceSettings,
  type HttpFaceSettingsShape,
  PublicUrl,
  ToolFacesLive
} from "../../src/http/index.js"
import { signUp, testCoreLayer } from "./core.js"

/** A signed-up account and the bearer token of its API key. */
export type TestUser = Effect.Effect.Success<ReturnType<typeof signUp>>

/** A web handler as `HttpLayerRouter.toWebHandler` makes it. */
export type WebHandler = (request: Request) => Promise<Response>

/** How a set of faces differs from the server's defaults. */
export interface FacesOptions {
  /** Transport settings to override (the defaults: a 1 MiB body cap and the default origin allow-list). */
  readonly settings?: Partial<HttpFaceSettingsShape>
  /**
   * Test-only tools added to the real registry, given the catalog entries core does not implement yet
   * (each must take one of those names); everything else (storage, auth, rate limiter) stays the real core's.
   */
  readonly extraTools?: (unimplemented: ReadonlyArray<CatalogEntry>) => ReadonlyArray<Tool>
}

/** The running test service. */
export interface TestAppShape {
  /** Base URL of the Node server, e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  /** The same faces as a web handler (its public URL is `url` too). */
  readonly handler: WebHandler
  /** The tools `handler` and the Node server serve: core's registry, plus any test-only tools. */
  readonly registry: ToolRegistryShape
  /** The names of the test-only tools they serve, in the order `extraTools` gave them. */
  readonly extraToolNames: ReadonlyArray<string>
  /** Opens an account with an API key (full access unless `access` says otherwise). */
  readonly signUp: (options?: { readonly plan?: Plan; readonly access?: Access }) => Effect.Effect<TestUser>
  /** Another web handler over the same core (same storage, keys and rate limiter) with other options, closed with the scope. */
  readonly makeHandler: (options: FacesOptions) => Effect.Effect<WebHandler, never, Scope.Scope>
}

type Core = Context.Context<Layer.Layer.Success<ReturnType<typeof testCoreLayer>>>

/** Core's registry, or a new one holding core's tools plus the test-only ones `options` adds. */
const registryFor = (core: Core, options: FacesOptions) => {
  const real = Context.get(core, ToolRegistry)
  if (options.extraTools === undefined) return { registry: real, extraToolNames: [] }
  const unimplemented = real.missing.flatMap((name) => catalogByName.get(name) ?? [])
  const extras = options.extraTools(unimplemented)
  const implemented = real.tools.filter((listed) => listed.entry.aliasOf === undefined).map((listed) => listed.tool)
  return {
    registry: makeToolRegistry([...implemented, ...extras]),
    extraToolNames: extras.map((tool) => tool.name)
  }
}

/** The tool faces over `core`, public at `url`, serving `registry` with the settings `options` gives. */
const facesOver = (core: Core, url: string, registry: ToolRegistryShape, options: FacesOptions) => {
  const coreLayer = Layer.succeedContext(core)
  // Another registry needs a ToolServer of its own; merged last, those two replace the core's.
  const services =
    registry === Context.get(core, ToolRegistry)
      ? coreLayer
      : Layer.merge(
          coreLayer,
          ToolServer.Default.pipe(Layer.provideMerge(Layer.succeed(ToolRegistry, registry)), Layer.provide(coreLayer))
        )
  const settings = Layer.succeed(HttpFaceSettings, { maxBodyBytes: DEFAULT_MAX_BODY_BYTES, ...options.settings })
  return ToolFacesLive.pipe(Layer.provide(Layer.mergeAll(services, PublicUrl.layer(url), settings)))
}

/** A web handler over `faces`, disposed with the scope. */
const webHandlerOf = (faces: ReturnType<typeof facesOver>) =>
  Effect.acquireRelease(
    Effect.sync(() => HttpLayerRouter.toWebHandler(faces, { disableLogger: true })),
    (web) => Effect.promise(() => web.dispose())
  ).pipe(Effect.map((web): WebHandler => web.handler))

/** The running test service; build it once per file with `layer(TestApp.layer, { excludeTestServices: true })`. */
export class TestApp extends Context.Tag("test/TestApp")<TestApp, TestAppShape>() {
  /** The service with `options` applied to both the Node server and `handler`. */
  static readonly layerWith = (options: FacesOptions) =>
    // The servers' fibers live in this layer; under a TestClock their sleeps and timeouts would never fire.
    Layer.scoped(
      TestApp,
      Effect.gen(function* () {
        const core = yield* Layer.build(testCoreLayer())
        const server = yield* Layer.build(NodeHttpServer.layer(() => createServer(), { port: 0, host: "127.0.0.1" }))
        const address = Context.get(server, HttpServer.HttpServer).address
        if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("the test server is not on TCP")
        const url = `http://127.0.0.1:${address.port}`
        const { registry, extraToolNames } = registryFor(core, options)
        const faces = facesOver(core, url, registry, options)
        yield* Layer.build(
          HttpLayerRouter.serve(faces, { disableLogger: true, disableListenLog: true }).pipe(
            Layer.provide(Layer.succeedContext(server))
          )
        )
        return {
          url,
          handler: yield* webHandlerOf(faces),
          registry,
          extraToolNames,
          signUp: (signUpOptions = {}) => signUp(signUpOptions).pipe(Effect.provide(core), Effect.orDie),
          makeHandler: (other) => webHandlerOf(facesOver(core, url, registryFor(core, other).registry, other))
        }
      })
    )

  /** The service as the server runs it: default settings, the real tools only. */
  static readonly layer = TestApp.layerWith({})
}
