/**
 * The automation tool's two OAuth connections, driven by `oauth4webapi` (a strict client nobody here wrote): its
 * first version asks for scope `store`, its later one for `read write`; each with and without an RFC 8707
 * `resource`, and `read` and `write` alone. Every token is then sent to every face — `/mcp` (tools/list, a read tool,
 * a write tool), the REST tools (`GET /v1/tools`, a read and a write call) and the store API (GETs, a sale, a product
 * change) — through oauth4webapi's protected-resource request, which parses each `WWW-Authenticate` challenge.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as oauth from "oauth4webapi"
import { FACES, type Face, sendVia, TestApp, type TestAppShape } from "../support/app.js"
import { automationClient, insecure, REDIRECT } from "./automation-client.js"
import { Browser, formFields, TEST_PASSWORD } from "./support.js"

/** What a protected-resource call answered: status, the parsed Bearer challenge (if any) and the JSON body. */
interface Answer {
  readonly status: number
  readonly challenge: Readonly<Record<string, string>> | undefined
  readonly body: Record<string, unknown>
}

const bodyOf = async (response: Response): Promise<Record<string, unknown>> => {
  const text = await response.text()
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>)
}

/** Sends one request with `token` the way oauth4webapi does, through `fetchVia` (a face of the test app). */
const call = async (
  fetchVia: (request: Request) => Promise<Response>,
  token: string,
  method: string,
  url: string,
  body?: unknown
): Promise<Answer> => {
  const headers = new Headers({ accept: "application/json, text/event-stream" })
  if (body !== undefined) headers.set("content-type", "application/json")
  try {
    const response = await oauth.protectedResourceRequest(
      token,
      method,
      new URL(url),
      headers,
      body === undefined ? null : JSON.stringify(body),
      {
        ...insecure,
        [oauth.customFetch]: (input, init) =>
          fetchVia(
            new Request(input, {
              method: init.method,
              headers: init.headers,
              body: (init.body ?? null) as NonNullable<RequestInit["body"]> | null
            })
          )
      }
    )
    return { status: response.status, challenge: undefined, body: await bodyOf(response) }
  } catch (error) {
    if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error
    const bearer = error.cause.find((challenge) => challenge.scheme === "bearer")
    return {
      status: error.status,
      challenge: bearer?.parameters as Record<string, string> | undefined,
      body: await bodyOf(error.response)
    }
  }
}

/** What a token gets on the tool faces: everything, reads only, 403 insufficient_scope, or 401 (other audience). */
type ToolsOutcome = "all" | "reads" | "insufficient_scope" | "wrong_audience"
/** What a token gets on the store API: reads and sales, reads only (403 on a sale), or 401 (other audience). */
type StoreOutcome = "reads and sales" | "reads" | "wrong_audience"

const mcp = (method: string, params: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, method, params })

/** Checks every tool-face call of `token` on `face` against `outcome`. */
const checkTools = async (app: TestAppShape, face: Face, token: string, outcome: ToolsOutcome) => {
  const via = sendVia(app, face)
  const list = await call(via, token, "POST", `${app.url}/mcp`, mcp("tools/list", {}))
  const read = await call(via, token, "POST", `${app.url}/mcp`, mcp("tools/call", { name: "svc_list_workspaces" }))
  const write = await call(
    via,
    token,
    "POST",
    `${app.url}/mcp`,
    mcp("tools/call", { name: "svc_create_note", arguments: { markdown: "# From the automation tool" } })
  )
  const restList = await call(via, token, "GET", `${app.url}/v1/tools`)
  const restRead = await call(via, token, "POST", `${app.url}/v1/tools/svc_list_workspaces`, {})
  const restWrite = await call(via, token, "POST", `${app.url}/v1/tools/svc_create_note`, { markdown: "# REST" })
  const all = [list, read, write, restList, restRead, restWrite]

  switch (outcome) {
    case "wrong_audience":
      for (const answer of all) {
        expect(answer.status).toBe(401)
        expect(answer.challenge).toMatchObject({ error: "invalid_token", realm: "mcp" })
      }
      expect(list.body).toMatchObject({ error: { code: -32001 } })
      expect(restList.body).toMatchObject({ ok: false, status: "auth-expired" })
      return
    case "insufficient_scope":
      for (const answer of all) {
        expect(answer.status).toBe(403)
        expect(answer.challenge).toMatchObject({ error: "insufficient_scope", scope: "read write", realm: "mcp" })
        expect(answer.challenge?.resource_metadata).toBe(`${app.url}/.well-known/oauth-protected-resource`)
      }
      for (const answer of [list, read, write]) {
        expect(answer.body).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("scope") } })
        expect(String((answer.body.error as { message: string }).message)).toContain("reaches only the store API")
      }
      for (const answer of [restList, restRead, restWrite]) {
        expect(answer.body).toMatchObject({ ok: false, status: "forbidden" })
        expect(String(answer.body.message)).toContain('authorize again with scope "read write"')
      }
      return
    case "reads":
    case "all": {
      expect(list.status).toBe(200)
      const tools = (list.body.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)
      expect(tools).toContain("svc_list_workspaces")
      expect(tools.includes("svc_create_note")).toBe(outcome === "all")
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({ result: { structuredContent: { ok: true } } })
      expect(restList.status).toBe(200)
      expect(restRead.status).toBe(200)
      expect(restRead.body).toMatchObject({ ok: true })
      if (outcome === "all") {
        expect(write.status).toBe(200)
        expect(write.body).toMatchObject({ result: { structuredContent: { ok: true } } })
        expect(restWrite.status).toBe(200)
        expect(restWrite.body).toMatchObject({ ok: true })
      } else {
        for (const answer of [write, restWrite]) {
          expect(answer.status).toBe(403)
          expect(answer.challenge).toMatchObject({ error: "insufficient_scope", scope: "read write" })
        }
        expect(restWrite.body).toMatchObject({ ok: false, status: "forbidden" })
      }
    }
  }
}

/** Checks the store API calls of `token` against `outcome`; a product change is never an OAuth connection's. */
const checkStore = async (app: TestAppShape, token: string, outcome: StoreOutcome) => {
  const via = (request: Request) => fetch(request)
  const me = await call(via, token, "GET", `${app.url}/store-app/v1/me`)
  const products = await call(via, token, "GET", `${app.url}/store-app/v1/products`)
  const sale = await call(via, token, "POST", `${app.url}/store-app/v1/sales`, {
    event: "sale",
    product: "prod_missing",
    email: "buyer@example.com"
  })
  const product = await call(via, token, "POST", `${app.url}/store-app/v1/products`, { custom_ai_id: "cai_x" })

  if (outcome === "wrong_audience") {
    for (const answer of [me, products, sale, product]) {
      expect(answer.status).toBe(401)
      expect(answer.challenge).toMatchObject({ error: "invalid_token", realm: "store" })
      expect(answer.challenge?.resource_metadata).toBe(`${app.url}/.well-known/oauth-protected-resource/store-app/v1`)
      expect(answer.body).toMatchObject({ ok: false, error: "unauthorized" })
    }
    return
  }
  expect(me.status).toBe(200)
  expect(me.body).toMatchObject({ ok: true })
  expect(products.status).toBe(200)
  expect(products.body).toMatchObject({ ok: true })
  if (outcome === "reads and sales") {
    // Past the access rules: the sale reaches the store, which turns the unknown product away.
    expect(sale.status).toBe(200)
    expect(sale.body).toMatchObject({ ok: false, status: "rejected", reason: "product_not_found" })
    expect(product.status).toBe(403)
    expect(product.challenge).toBeUndefined()
    expect(product.body).toMatchObject({ ok: false, error: "forbidden", code: "automation_connection" })
  } else {
    for (const answer of [sale, product]) {
      expect(answer.status).toBe(403)
      expect(answer.challenge).toMatchObject({ error: "insufficient_scope", scope: "read write", realm: "store" })
      expect(answer.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
      expect(String(answer.body.message)).toContain('scope "read"')
    }
  }
}

const CASES: ReadonlyArray<{
  readonly scope: string
  readonly resource: string | undefined
  readonly granted: string
  readonly tools: ToolsOutcome
  readonly store: StoreOutcome
}> = [
  { scope: "store", resource: undefined, granted: "store", tools: "insufficient_scope", store: "reads and sales" },
  { scope: "store", resource: "/store-app/v1", granted: "store", tools: "wrong_audience", store: "reads and sales" },
  { scope: "read write", resource: undefined, granted: "read write", tools: "all", store: "reads and sales" },
  {
    scope: "read write",
    resource: "/store-app/v1",
    granted: "read write",
    tools: "wrong_audience",
    store: "reads and sales"
  },
  { scope: "read write", resource: "/mcp", granted: "read write", tools: "all", store: "wrong_audience" },
  { scope: "read", resource: undefined, granted: "read", tools: "reads", store: "reads" },
  { scope: "read", resource: "/store-app/v1", granted: "read", tools: "wrong_audience", store: "reads" },
  { scope: "write", resource: undefined, granted: "write", tools: "all", store: "reads and sales" }
]

layer(TestApp.layer, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
  describe("the automation tool's OAuth connections (oauth4webapi)", () => {
    it.effect("every face's metadata names the scopes that reach it", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        yield* Effect.promise(async () => {
          const { as } = await automationClient(app)
          expect(as.scopes_supported).toEqual(["read", "write", "store"])
          for (const [path, scopes] of [
            ["/mcp", ["read", "write"]],
            ["/store-app/v1", ["store", "read", "write"]]
          ] as const) {
            const resource = new URL(`${app.url}${path}`)
            const metadata = await oauth.processResourceDiscoveryResponse(
              resource,
              await oauth.resourceDiscoveryRequest(resource, insecure)
            )
            expect(metadata.authorization_servers).toEqual([app.url])
            expect(metadata.scopes_supported).toEqual(scopes)
          }
          // A store API call without a token is pointed at the store API's metadata (RFC 9728 §5.1).
          const anonymous = await fetch(`${app.url}/store-app/v1/me`)
          expect(anonymous.status).toBe(401)
          expect(anonymous.headers.get("www-authenticate")).toBe(
            `Bearer realm="store", resource_metadata="${app.url}/.well-known/oauth-protected-resource/store-app/v1"`
          )
        })
      })
    )

    it.effect.each(CASES)(
      "scope $scope with resource $resource: tools $tools, store API $store",
      ({ scope, resource, granted, tools, store }) =>
        Effect.gen(function* () {
          const app = yield* TestApp
          const user = yield* app.signUp()
          yield* Effect.promise(async () => {
            const { connect } = await automationClient(app)
            const tokens = await connect(user, scope, resource)
            expect(tokens.scope).toBe(granted)
            for (const face of FACES) await checkTools(app, face, tokens.access_token, tools)
            await checkStore(app, tokens.access_token, store)
          })
        })
    )

    it.effect("the first version's store connection, then the later read write one, each keeps its own reach", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const { connect, refresh } = await automationClient(app)
          const first = await connect(user, "store", undefined)
          const later = await connect(user, "read write", undefined)
          await checkTools(app, "node:http lane", first.access_token, "insufficient_scope")
          await checkTools(app, "node:http lane", later.access_token, "all")
          await checkStore(app, later.access_token, "reads and sales")
          await checkStore(app, first.access_token, "reads and sales")

          // A refresh keeps the grant's scope and audience...
          const renewed = await refresh(String(first.refresh_token))
          expect(renewed.scope).toBe("store")
          await checkTools(app, "node:http lane", renewed.access_token, "insufficient_scope")
          await checkStore(app, renewed.access_token, "reads and sales")
          // ...may narrow it...
          const narrowed = await refresh(String(later.refresh_token), "read")
          expect(narrowed.scope).toBe("read")
          await checkTools(app, "node:http lane", narrowed.access_token, "reads")
          await checkStore(app, narrowed.access_token, "reads")
          // ...and never widen it.
          const widened = await refresh(String(narrowed.refresh_token), "read write").catch((error: unknown) => error)
          expect(widened).toBeInstanceOf(oauth.ResponseBodyError)
          expect((widened as oauth.ResponseBodyError).error).toBe("invalid_scope")
        })
      })
    )

    it.effect("without scope, a connection without resource is for read write on every face", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const { connect } = await automationClient(app)
          const tokens = await connect(user, undefined, undefined)
          expect(tokens.scope).toBe("read write")
          await checkTools(app, "platform router", tokens.access_token, "all")
          await checkStore(app, tokens.access_token, "reads and sales")
        })
      })
    )

    it.effect("the plan gate applies on top of the scopes: a Free account's store connection gets 402", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp({ plan: "free" })
        yield* Effect.promise(async () => {
          const { connect } = await automationClient(app)
          for (const scope of ["store", "read write"]) {
            const tokens = await connect(user, scope, undefined)
            const me = await call(fetch, tokens.access_token, "GET", `${app.url}/store-app/v1/me`)
            expect(me.status).toBe(402)
            expect(me.body).toMatchObject({ ok: false, error: "plan_required" })
            const sale = await call(fetch, tokens.access_token, "POST", `${app.url}/store-app/v1/sales`, {
              event: "sale",
              product: "prod_missing",
              email: "buyer@example.com"
            })
            expect(sale.status).toBe(402)
          }
        })
      })
    )

    it.effect("the consent page says what each scope grants where", () =>
      Effect.gen(function* () {
        const app = yield* TestApp
        const user = yield* app.signUp()
        yield* Effect.promise(async () => {
          const { client } = await automationClient(app)
          const consentFor = async (scope: string, resource?: string) => {
            const target = new URL(`${app.url}/oauth/authorize`)
            target.searchParams.set("client_id", client.client_id)
            target.searchParams.set("redirect_uri", REDIRECT)
            target.searchParams.set("response_type", "code")
            target.searchParams.set("scope", scope)
            const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier())
            target.searchParams.set("code_challenge", challenge)
            target.searchParams.set("code_challenge_method", "S256")
            if (resource !== undefined) target.searchParams.set("resource", `${app.url}${resource}`)
            const browser = new Browser(app.url)
            const first = await browser.get(target.href)
            const signedIn = await browser.post(`${app.url}/oauth/sign-in`, {
              ...formFields(first.text, "/oauth/sign-in"),
              email: user.account.email,
              password: TEST_PASSWORD
            })
            return (await browser.get(String(signedIn.response.headers.get("location")))).text
          }
          const store = await consentFor("store")
          expect(store).toContain("Use your store through the store API only")
          expect(store).toContain("No workspace tools.")
          expect(store).toContain("Never your products.")
          expect(store).toContain("For the tools and the store API, as far as these permissions reach.")
          const readWrite = await consentFor("read write")
          expect(readWrite).toContain("Read your workspace and store")
          expect(readWrite).toContain("Change your workspace and store")
          const named = await consentFor("read", "/mcp")
          expect(named).toContain("Read your workspace")
          expect(named).not.toContain("store API")
          expect(named).toContain(`${app.url}/mcp</span> only.`)
        })
      })
    )
  })
})
