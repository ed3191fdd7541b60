/**
 * One build of `CoreLive` makes each service once. A service names the services it builds on in its `dependencies`
 * (`StoreSales` names `Credits.Default`, …), and `CoreLive` lists the same layer values, so within one build the memo
 * map hands every dependant the instance `CoreLive` serves. Were a service wired twice over (a second layer value for
 * it, or `Layer.fresh`), a dependant would get a copy of its own: a cache one side fills, the other never sees.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Accounts } from "@svc/core/accounts"
import { ApiKeys, Authenticator, OAuthClients, OAuthTokens } from "@svc/core/auth"
import { Boards, Notes } from "@svc/core/boards"
import { Credits } from "@svc/core/credits"
import { AskJobRunner, CustomAiAsking, CustomAiChats, CustomAiKnowledge, CustomAis } from "@svc/core/custom-ai"
import { StoreCatalog, StoreCustomers, StoreSetup } from "@svc/core/store"
import { Context, Effect, Layer, type Scope } from "effect"
import { signUp, testCoreLayer } from "../support/core.js"
import { engineName } from "../support/database.js"

const testCore = testCoreLayer()
type Core = Layer.Layer.Success<typeof testCore>

/** The test core, built once in a memo map the tests keep, so they can ask the same build for a layer again. */
class CoreBuild extends Context.Tag("test/CoreBuild")<
  CoreBuild,
  { readonly core: Context.Context<Core>; readonly memoMap: Layer.MemoMap; readonly scope: Scope.Scope }
>() {}

const CoreBuildLive = Layer.scoped(
  CoreBuild,
  Effect.gen(function* () {
    const memoMap = yield* Layer.makeMemoMap
    const scope = yield* Effect.scope
    const core = yield* Layer.buildWithMemoMap(testCore, memoMap, scope)
    return { core, memoMap, scope }
  })
)

/** What the build gives a dependant that names `layer` (the service's `.Default`): built again, or the core's. */
const asDependantsGetIt = <S extends Core>(tag: Context.Tag<S, S>, layer: Layer.Layer<S, unknown, Core>) =>
  Effect.gen(function* () {
    const { core, memoMap, scope } = yield* CoreBuild
    const built = yield* Layer.buildWithMemoMap(layer, memoMap, scope).pipe(Effect.provide(core))
    return { service: tag.key, dependants: Context.get(built, tag), core: Context.get(core, tag) }
  })

layer(CoreBuildLive, { timeout: "60 seconds" })(`the core's wiring on ${engineName}`, (it) => {
  describe("a service other services build on", () => {
    it.effect("is the instance CoreLive serves, not a copy", () =>
      Effect.gen(function* () {
        const shared = [
          asDependantsGetIt(Credits, Credits.Default),
          asDependantsGetIt(Accounts, Accounts.Default),
          asDependantsGetIt(ApiKeys, ApiKeys.Default),
          asDependantsGetIt(OAuthTokens, OAuthTokens.Default),
          asDependantsGetIt(OAuthClients, OAuthClients.Default),
          asDependantsGetIt(Notes, Notes.Default),
          asDependantsGetIt(Boards, Boards.Default),
          asDependantsGetIt(CustomAis, CustomAis.Default),
          asDependantsGetIt(CustomAiKnowledge, CustomAiKnowledge.Default),
          asDependantsGetIt(CustomAiChats, CustomAiChats.Default),
          asDependantsGetIt(AskJobRunner, AskJobRunner.Default),
          asDependantsGetIt(CustomAiAsking, CustomAiAsking.Default),
          asDependantsGetIt(StoreSetup, StoreSetup.Default),
          asDependantsGetIt(StoreCatalog, StoreCatalog.Default),
          asDependantsGetIt(StoreCustomers, StoreCustomers.Default)
        ]
        for (const instances of yield* Effect.all(shared)) {
          expect(instances.dependants, instances.service).toBe(instances.core)
        }
      })
    )

    it.effect(
      "keeps one state: a key revoked through ApiKeys is refused at once by the Authenticator built on it",
      () =>
        Effect.gen(function* () {
          const { account, key, token } = yield* signUp()
          const auth = yield* Authenticator
          // Checked once, so the key is remembered in ApiKeys' cache for the next few seconds.
          yield* auth.authenticate(token, "tools")
          yield* (yield* ApiKeys).revoke(key.id, account.id)
          expect((yield* Effect.flip(auth.authenticate(token, "tools")))._tag).toBe("AuthExpired")
        }).pipe(Effect.provide(Effect.map(CoreBuild, ({ core }) => core).pipe(Layer.effectContext)))
    )
  })
})
