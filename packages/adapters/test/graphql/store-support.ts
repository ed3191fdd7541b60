/**
 * The GraphQL face over the whole core on the test database, as a web handler (webhook receivers on loopback
 * allowed, as in the webhook tests), with seller set-up on the same core: the store needs a store setting and a
 * Custom AI that no GraphQL field makes.
 */
import { createHash, randomBytes } from "node:crypto"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { Plan } from "@svc/core/accounts"
import { type Access, BrowserSessions, OAuthAuthorization, OAuthClients, OAuthTokens } from "@svc/core/auth"
import { CustomAis } from "@svc/core/custom-ai"
import { Context, Effect, Layer, Option } from "effect"
import { GraphQLClient } from "graphql-request"
import { PublicUrl } from "../../src/http/config.js"
import { OutboundSettings } from "../../src/http-sender/config.js"
import { GraphqlRoutes } from "../../src/http/graphql/index.js"
import { signUpSeller, testCoreLayer } from "../support/core.js"

type Core = Layer.Layer.Success<ReturnType<typeof testCoreLayer>>

/** The public address the face is served under: links in answers (a discount code's checkout_url) are on it. */
export const BASE = "http://svc.test"

export interface StoreGraphqlHarness {
  /** A graphql-request client of `/graphql` sending `token` as the bearer token. */
  readonly client: (token: string | undefined) => GraphQLClient
  /** Runs an effect with the core (services, ports, SQL). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Core>) => Effect.Effect<A, E>
  /** A new seller (Starter unless told) with a key, a store with a support email, and a Custom AI to sell. */
  readonly seller: (options?: { readonly plan?: Plan; readonly access?: Access }) => Effect.Effect<{
    readonly token: string
    readonly workspaceId: string
    readonly handle: string
    readonly accountId: string
    readonly newCustomAi: () => Effect.Effect<string>
  }>
  /** An OAuth access token of `accountId` with scope `store` (an automation connection), through the real flow. */
  readonly automationToken: (accountId: string) => Effect.Effect<string>
}

const REDIRECT = "http://127.0.0.1:9000/cb"

/** Registers a public client, approves its authorization with scope `store` for the account, and exchanges the code. */
const storeScopedToken = (accountId: string) =>
  Effect.gen(function* () {
    const { client } = yield* (yield* OAuthClients).register(
      {
        client_name: "Automation",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none"
      },
      randomBytes(6).toString("hex")
    )
    const verifier = randomBytes(32).toString("base64url")
    const { session } = yield* (yield* BrowserSessions).start
    const authorization = yield* OAuthAuthorization
    const checked = yield* authorization.check(
      [
        ["response_type", "code"],
        ["client_id", client.id],
        ["redirect_uri", REDIRECT],
        ["code_challenge", createHash("sha256").update(verifier).digest("base64url")],
        ["code_challenge_method", "S256"],
        ["state", "s"],
        ["scope", "store"]
      ],
      { audiences: new Map([[`${BASE}/store-app/v1`, "store" as const]]) }
    )
    const pending = yield* authorization.begin(checked, session.hash)
    const decided = yield* authorization.decide(pending.id, session.hash, accountId, true)
    const issued = yield* (yield* OAuthTokens).exchangeCode(client, {
      code: Option.getOrThrow(decided).params.code ?? "",
      redirectUri: REDIRECT,
      codeVerifier: verifier,
      resource: undefined
    })
    return issued.access_token
  })

export class StoreGraphql extends Context.Tag("test/StoreGraphql")<StoreGraphql, StoreGraphqlHarness>() {
  static readonly layer = Layer.scoped(
    StoreGraphql,
    Effect.gen(function* () {
      const core = yield* Layer.build(testCoreLayer())
      const web = yield* Effect.acquireRelease(
        Effect.sync(() =>
          HttpLayerRouter.toWebHandler(
            GraphqlRoutes.pipe(
              Layer.provide(Layer.succeedContext(core)),
              Layer.provide(PublicUrl.layer(BASE)),
              Layer.provide(
                Layer.succeed(OutboundSettings, { ...OutboundSettings.defaultValue(), allowLoopback: true })
              )
            ),
            { disableLogger: true }
          )
        ),
        (handler) => Effect.promise(() => handler.dispose())
      )
      const client: StoreGraphqlHarness["client"] = (token) =>
        new GraphQLClient(`${BASE}/graphql`, {
          ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
          fetch: (input: ConstructorParameters<typeof Request>[0], init?: RequestInit) =>
            web.handler(new Request(input, init))
        })
      const run: StoreGraphqlHarness["run"] = (effect) => Effect.provide(effect, core)
      const seller: StoreGraphqlHarness["seller"] = (options = {}) =>
        Effect.gen(function* () {
          const user = yield* signUpSeller(options)
          const workspaceId = user.workspace.id
          const newCustomAi = () =>
            Effect.flatMap(CustomAis, (s) => s.create(workspaceId, { name: "Coach" })).pipe(
              Effect.map((made) => made.id),
              Effect.provide(core),
              Effect.orDie
            )
          return {
            token: user.token,
            workspaceId,
            handle: user.store.handle,
            accountId: user.account.id,
            newCustomAi
          }
        }).pipe(Effect.provide(core), Effect.orDie)
      const automationToken: StoreGraphqlHarness["automationToken"] = (accountId) =>
        storeScopedToken(accountId).pipe(Effect.provide(core), Effect.orDie)
      return { client, run, seller, automationToken }
    })
  )
}
