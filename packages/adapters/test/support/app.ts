/**
 * The tool faces over the whole core on a test database, served twice from one core: as a web
 * handler (`HttpLayerRouter.toWebHandler`) and by a real Node HTTP server on a free port, so tests
 * can drive it with `fetch` or with the official MCP SDK client over the network.
 */
import { createServer } from "node:net"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { Plan } from "@svc/core/accounts"
import type { Access, Part } from "@svc/core/auth"
import {
  makeToolRegistry,
  type SpecTool,
  specToolsByName,
  type Tool,
  ToolRegistry,
  type ToolRegistryShape,
  ToolServer
} from "@svc/core/tools"
import { type Clock, Context, Effect, Layer, type Scope } from "effect"
import {
  DEFAULT_MAX_BODY_BYTES,
  HttpFaceSettings,
  type HttpFaceSettingsShape,
  lanedServerLayer,
  PublicUrl,
  ToolFacesLive,
  ToolLanesLive
} from "../../src/http/index.js"
import { type PortReplacements, signUp, testCoreLayer } from "./core.js"

/** A signed-up account and the bearer token of its API key. */
export type TestUser = Effect.Effect.Success<ReturnType<typeof signUp>>

/** A web handler as `HttpLayerRouter.toWebHandler` makes it. */
export type WebHandler = (request: Request) => Promise<Response>

/** How a set of faces differs from the server's defaults. */
export interface FacesOptions {
  /** Transport settings to override (the defaults: a 1 MiB body cap and the default origin allow-list). */
  readonly settings?: Partial<HttpFaceSettingsShape>
  /**
   * Test-only tools added to the real registry, given the service description's tools core does not implement yet
   * (each must take one of those names); everything else (storage, auth, rate limiter) stays the real core's.
   */
  readonly extraTools?: (unimplemented: ReadonlyArray<SpecTool>) => ReadonlyArray<Tool>
}

/** The world under the service: live unless a test makes it predictable (see predictable.ts). */
export interface TestWorld {
  /** Ports in place of the live ones, e.g. counted ids. */
  readonly ports?: PortReplacements
  /** The clock every request, the set-up and the signing-up read. */
  readonly clock?: Clock.Clock
}

/** The running test service. */
export interface TestAppShape {
  /** Base URL of the Node server, e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  /** The same faces as a web handler (its public URL is `url` too): the platform router, as an embedding backend serves them. */
  readonly handler: WebHandler
  /** Sends a request for `url` to the Node server, where tool calls take the server's `node:http` lane. */
  readonly viaNode: WebHandler
  /** The tools `handler` and the Node server serve: core's registry, plus any test-only tools. */
  readonly registry: ToolRegistryShape
  /** The names of the test-only tools they serve, in the order `extraTools` gave them. */
  readonly extraToolNames: ReadonlyArray<string>
  /** Opens an account with an API key (full access unless `access` says otherwise). */
  readonly signUp: (options?: {
    readonly plan?: Plan
    readonly access?: Access
    /** The key's default toolsets (every group when left out). */
    readonly toolsets?: ReadonlyArray<Part>
  }) => Effect.Effect<TestUser>
  /** Runs set-up the faces have no route for yet (a Custom AI, store settings) on the app's core. */
  readonly setUp: <A, E>(
    effect: Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof testCoreLayer>>>
  ) => Effect.Effect<A, E>
  /** Another web handler over the same core (same storage, keys and rate limiter) with other options, closed with the scope. */
  readonly makeHandler: (options: FacesOptions) => Effect.Effect<WebHandler, never, Scope.Scope>
}

type Core = Context.Context<Layer.Layer.Success<ReturnType<typeof testCoreLayer>>>

/** Core's registry, or a new one holding core's tools plus the test-only ones `options` adds. */
const registryFor = (core: Core, options: FacesOptions) => {
  const real = Context.get(core, ToolRegistry)
  if (options.extraTools === undefined) return { registry: real, extraToolNames: [] }
  const unimplemented = real.missing.flatMap((name) => specToolsByName.get(name) ?? [])
  const extras = options.extraTools(unimplemented)
  const implemented = real.tools.filter((listed) => listed.entry.aliasOf === undefined).map((listed) => listed.tool)
  return {
    registry: makeToolRegistry([...implemented, ...extras]),
    extraToolNames: extras.map((tool) => tool.name)
  }
}

/** What the faces need, over `core`, public at `url`, serving `registry` with the settings `options` gives. */
const servicesOver = (core: Core, url: string, registry: ToolRegistryShape, options: FacesOptions) => {
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
  return Layer.mergeAll(services, PublicUrl.layer(url), settings)
}

/** The tool faces over `core`, public at `url`, serving `registry` with the settings `options` gives. */
const facesOver = (core: Core, url: string, registry: ToolRegistryShape, options: FacesOptions) =>
  ToolFacesLive.pipe(Layer.provide(servicesOver(core, url, registry, options)))

/** A TCP port free on 127.0.0.1 right now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/** The tool lane over `core`, as `facesOver` serves the other faces. */
const lanesOver = (core: Core, url: string, registry: ToolRegistryShape, options: FacesOptions) =>
  ToolLanesLive.pipe(Layer.provide(servicesOver(core, url, registry, options)))

/** A web handler over `faces` (its runtime on `clock` when given), disposed with the scope. */
const webHandlerOf = (faces: ReturnType<typeof facesOver>, clock: Clock.Clock | undefined) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      HttpLayerRouter.toWebHandler(clock === undefined ? faces : Layer.provide(faces, Layer.setClock(clock)), {
        disableLogger: true
      })
    ),
    (web) => Effect.promise(() => web.dispose())
  ).pipe(Effect.map((web): WebHandler => web.handler))

/** The running test service; build it once per file with `layer(TestApp.layer, { excludeTestServices: true })`. */
export class TestApp extends Context.Tag("test/TestApp")<TestApp, TestAppShape>() {
  /** The service with `options` applied to both the Node server and `handler`. */
  static readonly layerWith = (options: FacesOptions, world: TestWorld = {}) =>
    // The servers' fibers live in this layer; under a TestClock their sleeps and timeouts would never fire.
    Layer.scoped(
      TestApp,
      Effect.gen(function* () {
        // Set for the rest of this scope, the clock reaches the core and the Node server's fibers; the web handlers'
        // runtimes are built apart, so they set it themselves (webHandlerOf).
        if (world.clock !== undefined) yield* Effect.withClockScoped(world.clock)
        const withClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          world.clock === undefined ? effect : Effect.withClock(effect, world.clock)
        const core = yield* Layer.build(testCoreLayer(world.ports))
        // The lane needs the public URL before the server listens, so the port is picked first.
        const port = yield* Effect.promise(freePort)
        const url = `http://127.0.0.1:${port}`
        const { registry, extraToolNames } = registryFor(core, options)
        const faces = facesOver(core, url, registry, options)
        const server = Layer.merge(
          lanedServerLayer({ port, host: "127.0.0.1" }).pipe(Layer.provide(lanesOver(core, url, registry, options))),
          NodeHttpServer.layerContext
        )
        yield* Layer.build(
          HttpLayerRouter.serve(faces, { disableLogger: true, disableListenLog: true }).pipe(Layer.provide(server))
        )
        return {
          url,
          handler: yield* webHandlerOf(faces, world.clock),
          viaNode: (request) => fetch(request),
          registry,
          extraToolNames,
          signUp: (signUpOptions = {}) => signUp(signUpOptions).pipe(Effect.provide(core), Effect.orDie, withClock),
          setUp: (effect) => withClock(Effect.provide(effect, core)),
          makeHandler: (other) =>
            webHandlerOf(facesOver(core, url, registryFor(core, other).registry, other), world.clock)
        }
      })
    )

  /** The service as the server runs it: default settings, the real tools only. */
  static readonly layer = TestApp.layerWith({})
}

/**
 * The two ways the tool calls are served: the platform router (what an embedding backend serves) and the svc
 * server's own `node:http` lane. Tests of the MCP and REST rules run against both.
 */
export const FACES = ["platform router", "node:http lane"] as const
export type Face = (typeof FACES)[number]

/** The sender of `face`. */
export const sendVia = (app: TestAppShape, face: Face): WebHandler =>
  face === "platform router" ? app.handler : app.viaNode
