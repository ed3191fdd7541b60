import { describe, expect, layer } from "@effect/vitest"
import { readOnlyAccess } from "@svc/core/auth"
import { Effect } from "effect"
import { ClientError, type GraphQLClient } from "graphql-request"
import { receiver } from "../webhooks/support.js"
import { BASE, StoreGraphql } from "./store-support.js"

/** A GraphQL answer with its errors (graphql-request throws on them). */
interface Answer<A> {
  readonly data: A | null | undefined
  readonly errors: ReadonlyArray<{ readonly message: string; readonly extensions?: Record<string, unknown> }>
}

const ask = <A = Record<string, unknown>>(
  client: GraphQLClient,
  document: string,
  variables?: Record<string, unknown>
): Effect.Effect<Answer<A>> =>
  Effect.promise(() =>
    client.request<A>(document, variables).then(
      (data): Answer<A> => ({ data, errors: [] }),
      (error: unknown): Answer<A> => {
        if (!(error instanceof ClientError)) throw error
        return { data: error.response.data as A | undefined, errors: error.response.errors ?? [] }
      }
    )
  )

/** The fields the tests read out of answers. */
type Read =
  | "store"
  | "handle"
  | "edges"
  | "hasNextPage"
  | "previous_secret_expires_at"
  | "products"
  | "product"
  | "nodes"
  | "sales"
  | "customers"
  | "customer"
  | "events"
  | "webhooks"
  | "pageInfo"
  | "endCursor"
  | "id"
  | "message"
  | "errors"
  | "path"
  | "webhook"
  | "secret"
  | "recordSale"
  | "createProduct"
  | "updateProduct"
  | "publishProduct"
  | "unpublishProduct"
  | "addCustomer"
  | "removeCustomerAccess"
  | "createWebhook"
  | "updateWebhook"
  | "deleteWebhook"
  | "testWebhook"
  | "rollWebhookSecret"
  | "settings"
  | "updateStoreSettings"
  | "discountCodes"
  | "discountCode"
  | "discount_code"
  | "createDiscountCode"
  | "disableDiscountCode"
  | "code"
  | "checkout_url"

/** An answer read loosely (the first row as `[0]`): the assertions check its shape. */
interface Loose extends Readonly<Record<Read | 0, Loose>> {}

/** Asks and expects no errors. */
const read = <A = Loose>(client: GraphQLClient, document: string, variables?: Record<string, unknown>) =>
  Effect.map(ask<A>(client, document, variables), (answer) => {
    expect(answer.errors).toEqual([])
    return answer.data as A
  })

const PRODUCT_RESULT = `__typename
  ... on ProductPayload { ok can_publish product { id title status live } }
  ... on ToolFailure { ok status message errors { path message } }`

const SALE_RESULT = `__typename
  ... on RecordSalePayloadOk { ok outcome: status }
  ... on RecordSalePayloadRejected { ok status reason message }
  ... on ToolFailure { status message errors { path message } }`

/** A live product made and published through the mutations; answers its id. */
const liveProduct = (client: GraphQLClient, customAiId: string, title = "Coaching") =>
  Effect.gen(function* () {
    const created = yield* read(
      client,
      `mutation ($input: CreateProductInput!) { createProduct(input: $input) { ${PRODUCT_RESULT} } }`,
      { input: { custom_ai_id: customAiId, title } }
    )
    expect(created.createProduct).toMatchObject({ __typename: "ProductPayload", product: { status: "draft" } })
    const id = String(created.createProduct.product.id)
    const published = yield* read(client, `mutation { publishProduct(id: "${id}") { ${PRODUCT_RESULT} } }`)
    expect(published.publishProduct).toMatchObject({ product: { id, status: "live", live: true } })
    return id
  })

const CODE_FIELDS =
  "id product_id code kind value percent_off amount_off_cents max_uses uses_left expires_at active disabled_at checkout_url"

const CREATE_CODE = `mutation ($input: CreateDiscountCodeInput!) { createDiscountCode(input: $input) { __typename
  ... on CreateDiscountCodePayload { ok code checkout_url discount_code { ${CODE_FIELDS} } }
  ... on ToolFailure { ok status message errors { path message } } } }`

const DISABLE_CODE = `mutation ($id: String!) { disableDiscountCode(id: $id) { __typename
  ... on DisableDiscountCodePayload { ok discount_code { ${CODE_FIELDS} } }
  ... on ToolFailure { ok status message } } }`

/** A draft product with a price at the service's checkout (a discount code does not need it live); answers its id. */
const pricedDraft = (client: GraphQLClient, customAiId: string) =>
  Effect.map(
    read(client, `mutation ($input: CreateProductInput!) { createProduct(input: $input) { ${PRODUCT_RESULT} } }`, {
      input: { custom_ai_id: customAiId, title: "Course", price_cents: 4900 }
    }),
    (created) => String(created.createProduct.product.id)
  )

const recordSale = (client: GraphQLClient, input: Record<string, unknown>) =>
  Effect.map(
    read(client, `mutation ($input: RecordSaleInput!) { recordSale(input: $input) { ${SALE_RESULT} } }`, { input }),
    (data) => data.recordSale
  )

layer(StoreGraphql.layer, { timeout: "120 seconds", excludeTestServices: true })("GraphQL store", (it) => {
  describe("store(handle) reads", () => {
    it.effect("reads products, sales, customers, cohorts and events, paging sales with first/after", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const productId = yield* liveProduct(client, yield* seller.newCustomAi())
        for (const n of [1, 2, 3]) {
          expect(
            yield* recordSale(client, {
              event: "sale",
              product: productId,
              email: `buyer${n}@example.com`,
              order_id: `o${n}`
            })
          ).toMatchObject({ __typename: "RecordSalePayloadOk", ok: true, outcome: "granted" })
        }

        const store = yield* read(
          client,
          `{ store { handle name
               products(first: 10) { nodes { id title status cohorts { id }
                 sales { nodes { buyer_email } } customers(hasAccess: true) { nodes { email has_access } } } }
               customer(email: "buyer2@example.com") { email has_access products_with_access }
               events(type: "purchase.created") { nodes { id type data } }
               webhooks { id } } }`
        )
        expect(store.store.handle).toBe(seller.handle)
        expect(store.store.products.nodes).toHaveLength(1)
        const product = store.store.products.nodes[0]
        expect(product).toMatchObject({ id: productId, title: "Coaching", status: "live", cohorts: [] })
        expect(product.sales.nodes).toEqual([
          { buyer_email: "buyer3@example.com" },
          { buyer_email: "buyer2@example.com" },
          { buyer_email: "buyer1@example.com" }
        ])
        expect(product.customers.nodes).toHaveLength(3)
        expect(store.store.customer).toMatchObject({ has_access: true, products_with_access: [productId] })
        expect(store.store.events.nodes).toHaveLength(3)
        expect(store.store.events.nodes[0]).toMatchObject({ type: "purchase.created" })
        expect(store.store.webhooks).toEqual([])

        // Two pages of sales on the store API's keyset cursors.
        const first = yield* read(
          client,
          "{ store { sales(first: 2) { edges { cursor node { id buyer_email } } pageInfo { hasNextPage endCursor } } } }"
        )
        const page = first.store.sales
        expect(page.edges).toMatchObject([
          { node: { buyer_email: "buyer3@example.com" } },
          { node: { buyer_email: "buyer2@example.com" } }
        ])
        expect(page.pageInfo.hasNextPage).toBe(true)
        const second = yield* read(
          client,
          `query ($after: String) { store { sales(first: 2, after: $after) {
             nodes { buyer_email } pageInfo { hasNextPage hasPreviousPage } } } }`,
          { after: page.pageInfo.endCursor }
        )
        expect(second.store.sales).toMatchObject({
          nodes: [{ buyer_email: "buyer1@example.com" }],
          pageInfo: { hasNextPage: false, hasPreviousPage: true }
        })

        const bad = yield* ask(client, `{ store { sales(first: 0) { nodes { id } } } }`)
        expect(bad.errors[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: "invalid" })
      })
    )

    it.effect("another store's handle and ids are not found", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const owner = yield* harness.seller()
        const productId = yield* liveProduct(harness.client(owner.token), yield* owner.newCustomAi())
        const other = harness.client((yield* harness.seller()).token)

        const byHandle = yield* ask(other, `{ store(handle: "${owner.handle}") { handle } }`)
        expect(byHandle.errors[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: "not-found" })
        const product = yield* ask(other, `{ store { product(id: "${productId}") { id } } }`)
        expect(product.errors[0]?.extensions).toMatchObject({ code: "NOT_FOUND" })
        expect(product.data).toEqual({ store: { product: null } })
        const changed = yield* read(
          other,
          `mutation { updateProduct(id: "${productId}", input: { title: "Mine" }) { ${PRODUCT_RESULT} } }`
        )
        expect(changed.updateProduct).toMatchObject({ __typename: "ToolFailure", status: "not-found" })
      })
    )

    it.effect("below Starter the store is forbidden, naming the plan", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const free = harness.client((yield* harness.seller({ plan: "free" })).token)
        const query = yield* ask(free, "{ store { handle } }")
        expect(query.errors[0]?.extensions).toMatchObject({ code: "FORBIDDEN", status: "forbidden" })
        expect(query.errors[0]?.message).toContain("Starter plan")
        const mutation = yield* read(free, `mutation { publishProduct(id: "prod_x") { ${PRODUCT_RESULT} } }`)
        expect(mutation.publishProduct).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
        expect(mutation.publishProduct.message).toContain("Starter plan")
      })
    )
  })

  describe("store mutations", () => {
    it.effect("changes products; refusals are ToolFailures with the API's field problems", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const productId = yield* liveProduct(client, yield* seller.newCustomAi())

        const renamed = yield* read(
          client,
          `mutation { updateProduct(id: "${productId}", input: { title: "Renamed", tagline: "Short" }) { ${PRODUCT_RESULT} } }`
        )
        expect(renamed.updateProduct).toMatchObject({ __typename: "ProductPayload", product: { title: "Renamed" } })
        const tooLong = yield* read(
          client,
          `mutation ($title: String) { updateProduct(id: "${productId}", input: { title: $title }) { ${PRODUCT_RESULT} } }`,
          { title: "x".repeat(201) }
        )
        expect(tooLong.updateProduct).toMatchObject({ __typename: "ToolFailure", ok: false, status: "invalid" })
        expect(tooLong.updateProduct.errors[0].path).toBe("title")
        const off = yield* read(client, `mutation { unpublishProduct(id: "${productId}") { ${PRODUCT_RESULT} } }`)
        expect(off.unpublishProduct).toMatchObject({ product: { status: "off", live: false } })
        const missing = yield* read(client, `mutation { publishProduct(id: "prod_missing") { ${PRODUCT_RESULT} } }`)
        expect(missing.publishProduct).toMatchObject({ __typename: "ToolFailure", status: "not-found" })

        // A turned-away sale is the API's own answer, not a failure; a bad email is.
        expect(
          yield* recordSale(client, { event: "sale", product: productId, email: "late@example.com" })
        ).toMatchObject({
          __typename: "RecordSalePayloadRejected",
          ok: false,
          reason: "product_not_live"
        })
        const badEmail = yield* recordSale(client, { event: "sale", product: productId, email: "not-an-email" })
        expect(badEmail).toMatchObject({ __typename: "ToolFailure", status: "invalid" })
        expect(badEmail.errors[0].path).toBe("email")
      })
    )

    it.effect("reads the store's settings and changes them; a bad address is a ToolFailure naming support_email", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const SETTINGS = "handle name support_email card_processor email_list_add_buyers email_double_opt_in"
        const before = yield* read(client, `{ store { settings { ${SETTINGS} } } }`)
        expect(before.store.settings).toMatchObject({ handle: seller.handle, email_double_opt_in: false })

        const RESULT = `__typename
          ... on UpdateStoreSettingsPayload { ok settings { ${SETTINGS} } }
          ... on ToolFailure { ok status message errors { path message } }`
        const changed = yield* read(
          client,
          `mutation { updateStoreSettings(input: { name: "Graph Store", email_double_opt_in: true }) { ${RESULT} } }`
        )
        expect(changed.updateStoreSettings).toMatchObject({
          __typename: "UpdateStoreSettingsPayload",
          ok: true,
          settings: { name: "Graph Store", email_double_opt_in: true, handle: seller.handle }
        })
        const refused = yield* read(
          client,
          `mutation { updateStoreSettings(input: { support_email: "nope" }) { ${RESULT} } }`
        )
        expect(refused.updateStoreSettings).toMatchObject({ __typename: "ToolFailure", ok: false, status: "invalid" })
        expect(refused.updateStoreSettings.errors[0].path).toBe("support_email")
        const after = yield* read(client, `{ store { name settings { name email_double_opt_in } } }`)
        expect(after.store).toMatchObject({ name: "Graph Store", settings: { name: "Graph Store" } })
      })
    )

    it.effect("adds a customer and removes their access", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const product = yield* liveProduct(client, yield* seller.newCustomAi())
        const added = yield* read(
          client,
          `mutation ($input: AddCustomerInput!) { addCustomer(input: $input) {
             __typename ... on AddCustomerPayloadOk { ok outcome: status } ... on ToolFailure { status message } } }`,
          { input: { product, email: "friend@example.com", send_email: false } }
        )
        expect(added.addCustomer).toMatchObject({ ok: true, outcome: "added" })
        const removed = yield* read(
          client,
          `mutation ($input: RemoveCustomerAccessInput!) { removeCustomerAccess(input: $input) {
             __typename ... on RemoveCustomerAccessPayload { ok outcome: status } ... on ToolFailure { status message } } }`,
          { input: { product, email: "friend@example.com" } }
        )
        expect(removed.removeCustomerAccess).toMatchObject({ ok: true, outcome: "removed" })
        const customer = yield* read(client, `{ store { customer(email: "friend@example.com") { has_access } } }`)
        expect(customer.store.customer).toEqual({ has_access: false })
        const never = yield* read(
          client,
          `mutation { removeCustomerAccess(input: { product: "${product}", email: "nobody@example.com" }) {
             __typename ... on ToolFailure { status } } }`
        )
        expect(never.removeCustomerAccess).toEqual({ __typename: "ToolFailure", status: "not-found" })
      })
    )

    it.effect("a read-only key reads the store but every change is a forbidden ToolFailure", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const reader = yield* harness.seller({ access: readOnlyAccess })
        const client = harness.client(reader.token)
        expect((yield* read(client, "{ store { handle } }")).store.handle).toBe(reader.handle)
        const created = yield* read(
          client,
          `mutation { createProduct(input: { custom_ai_id: "${yield* reader.newCustomAi()}" }) { ${PRODUCT_RESULT} } }`
        )
        expect(created.createProduct).toMatchObject({ __typename: "ToolFailure", ok: false, status: "forbidden" })
        expect(created.createProduct.message).toContain("only read the store")
      })
    )

    it.effect("an automation connection (OAuth scope store) records sales but cannot change products", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const product = yield* liveProduct(harness.client(seller.token), yield* seller.newCustomAi())
        const automation = harness.client(yield* harness.automationToken(seller.accountId))
        expect((yield* read(automation, "{ store { handle } }")).store.handle).toBe(seller.handle)
        expect(yield* recordSale(automation, { event: "sale", product, email: "zap@example.com" })).toMatchObject({
          __typename: "RecordSalePayloadOk",
          outcome: "granted"
        })
        const renamed = yield* read(
          automation,
          `mutation { updateProduct(id: "${product}", input: { title: "Zapped" }) { ${PRODUCT_RESULT} } }`
        )
        expect(renamed.updateProduct).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
        expect(renamed.updateProduct.message).toContain("automation connection")
      })
    )

    it.effect("manages webhooks: create, list with deliveries, test, roll the secret, turn off, delete", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const hooks = yield* receiver()
        const created = yield* read(
          client,
          `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) {
             __typename ... on CreateWebhookPayload { ok webhook { id url events secret } }
             ... on ToolFailure { status message errors { path message } } } }`,
          { input: { url: hooks.url, events: ["purchase.created"], description: "Orders" } }
        )
        expect(created.createWebhook).toMatchObject({ __typename: "CreateWebhookPayload", webhook: { url: hooks.url } })
        const id = String(created.createWebhook.webhook.id)
        expect(created.createWebhook.webhook.secret).toMatch(/\S{20,}/)

        const listed = yield* read(client, "{ store { webhooks { id events deliveries(first: 5) { nodes { id } } } } }")
        expect(listed.store.webhooks).toEqual([{ id, events: ["purchase.created"], deliveries: { nodes: [] } }])

        const tested = yield* read(
          client,
          `mutation { testWebhook(id: "${id}") { __typename ... on TestWebhookPayload { delivered response_code } } }`
        )
        expect(tested.testWebhook).toMatchObject({ delivered: true, response_code: 200 })
        expect(hooks.got).toHaveLength(1)

        const rolled = yield* read(
          client,
          `mutation { rollWebhookSecret(id: "${id}", input: { grace_seconds: 60 }) {
             __typename ... on RollWebhookSecretPayload { webhook { secret } previous_secret_expires_at } } }`
        )
        expect(rolled.rollWebhookSecret.webhook.secret).not.toBe(created.createWebhook.webhook.secret)
        expect(rolled.rollWebhookSecret.previous_secret_expires_at).toEqual(expect.any(String))

        const off = yield* read(
          client,
          `mutation { updateWebhook(id: "${id}", input: { enabled: false }) {
             __typename ... on UpdateWebhookPayload { webhook { enabled } } } }`
        )
        expect(off.updateWebhook).toMatchObject({ webhook: { enabled: false } })
        const badUrl = yield* read(
          client,
          `mutation { updateWebhook(id: "${id}", input: { url: "ftp://example.com" }) {
             __typename ... on ToolFailure { status } } }`
        )
        expect(badUrl.updateWebhook).toEqual({ __typename: "ToolFailure", status: "invalid" })

        const deleted = yield* read(
          client,
          `mutation { deleteWebhook(id: "${id}") { __typename ... on DeleteWebhookPayload { id deleted } } }`
        )
        expect(deleted.deleteWebhook).toMatchObject({ id, deleted: true })
        const again = yield* read(
          client,
          `mutation { deleteWebhook(id: "${id}") { __typename ... on ToolFailure { status } } }`
        )
        expect(again.deleteWebhook).toEqual({ __typename: "ToolFailure", status: "not-found" })
      }).pipe(Effect.scoped)
    )
  })

  describe("discount codes", () => {
    it.effect("makes, lists, reads and turns off codes as the store API does, with their checkout links", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const product = yield* pricedDraft(client, yield* seller.newCustomAi())
        const other = yield* pricedDraft(client, yield* seller.newCustomAi())

        const expiresAt = "2099-12-31T23:59:59.000Z"
        const created = yield* read(client, CREATE_CODE, {
          input: { product, kind: "percent", value: 25, code: "Spring-25", max_uses: 100, expires_at: expiresAt }
        })
        const link = `${BASE}/c/${product}?code=Spring-25`
        expect(created.createDiscountCode).toEqual({
          __typename: "CreateDiscountCodePayload",
          ok: true,
          code: "Spring-25",
          checkout_url: link,
          discount_code: {
            id: expect.stringMatching(/^dsc_/),
            product_id: product,
            code: "Spring-25",
            kind: "percent",
            value: 25,
            percent_off: 25,
            amount_off_cents: null,
            max_uses: 100,
            uses_left: 100,
            expires_at: expiresAt,
            active: true,
            disabled_at: null,
            checkout_url: link
          }
        })
        const spring = created.createDiscountCode.discount_code

        // No code: a random one. expires_at takes milliseconds as the store API does (a JSON number).
        const at = Date.UTC(2099, 0, 1)
        const random = yield* read(client, CREATE_CODE, {
          input: { product: other, kind: "amount", value: 9.99, expires_at: at }
        })
        expect(random.createDiscountCode.discount_code).toMatchObject({
          kind: "amount",
          amount_off_cents: 999,
          expires_at: new Date(at).toISOString()
        })
        expect(String(random.createDiscountCode.code)).toMatch(/^[A-Z2-9]{8}$/)

        // Pages of one on the store API's cursors, newest first; the product's own codes on the product.
        const first = yield* read(
          client,
          `{ store { discountCodes(first: 1) { nodes { id } pageInfo { hasNextPage endCursor } } } }`
        )
        expect(first.store.discountCodes.pageInfo.hasNextPage).toBe(true)
        const second = yield* read(
          client,
          `query ($after: String) { store { discountCodes(first: 1, after: $after) {
             nodes { id } pageInfo { hasNextPage } } } }`,
          { after: first.store.discountCodes.pageInfo.endCursor }
        )
        expect(second.store.discountCodes.pageInfo.hasNextPage).toBe(false)
        expect([first.store.discountCodes.nodes[0], second.store.discountCodes.nodes[0]]).toEqual(
          expect.arrayContaining([{ id: spring.id }, { id: random.createDiscountCode.discount_code.id }])
        )
        const narrowed = yield* read(
          client,
          `query ($product: String!) { store { discountCodes(product: $product) { nodes { code } }
             product(id: $product) { discountCodes { nodes { code } } } } }`,
          { product }
        )
        expect(narrowed.store.discountCodes.nodes).toEqual([{ code: "Spring-25" }])
        expect(narrowed.store.product.discountCodes.nodes).toEqual([{ code: "Spring-25" }])

        // By id or by the code in any case.
        const byCode = yield* read(client, `{ store { discountCode(id: "spring-25") { ${CODE_FIELDS} } } }`)
        expect(byCode.store.discountCode).toEqual(spring)

        const disabled = yield* read(client, DISABLE_CODE, { id: "SPRING-25" })
        expect(disabled.disableDiscountCode).toEqual({
          __typename: "DisableDiscountCodePayload",
          ok: true,
          discount_code: { ...spring, active: false, disabled_at: expect.any(String) }
        })
        const byId = yield* read(client, `query ($id: String!) { store { discountCode(id: $id) { active } } }`, {
          id: spring.id
        })
        expect(byId.store.discountCode).toEqual({ active: false })
      })
    )

    it.effect("refuses broken rules and other stores' codes as the store API does", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const product = yield* pricedDraft(client, yield* seller.newCustomAi())
        const create = (input: Record<string, unknown>) =>
          Effect.map(
            read(client, CREATE_CODE, { input: { product, kind: "percent", value: 10, ...input } }),
            (data) => data.createDiscountCode
          )

        const broken = yield* create({ value: 150, max_uses: 0, expires_at: "2001-01-01" })
        // Every broken rule at once, each on the store API's own field.
        expect(broken).toMatchObject({
          __typename: "ToolFailure",
          ok: false,
          status: "invalid",
          errors: [{ path: "value" }, { path: "max_uses" }, { path: "expires_at" }]
        })
        const unknown = yield* create({ product: "prod_nope" })
        expect(unknown).toMatchObject({ __typename: "ToolFailure", status: "not-found" })
        expect(unknown.message).toContain("GET /products")
        expect(yield* create({ code: "Summer" })).toMatchObject({ __typename: "CreateDiscountCodePayload" })
        expect(yield* create({ code: "SUMMER" })).toMatchObject({ __typename: "ToolFailure", status: "conflict" })

        const stranger = harness.client((yield* harness.seller()).token)
        const theirs = yield* ask(stranger, `{ store { discountCode(id: "summer") { id } } }`)
        expect(theirs.errors[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: "not-found" })
        expect((yield* read(stranger, DISABLE_CODE, { id: "summer" })).disableDiscountCode).toMatchObject({
          __typename: "ToolFailure",
          status: "not-found"
        })
        expect(
          (yield* read(stranger, "{ store { discountCodes { nodes { id } } } }")).store.discountCodes.nodes
        ).toEqual([])
      })
    )

    it.effect("a read-only key and an automation connection read codes but cannot make or turn them off", () =>
      Effect.gen(function* () {
        const harness = yield* StoreGraphql
        const seller = yield* harness.seller()
        const client = harness.client(seller.token)
        const product = yield* pricedDraft(client, yield* seller.newCustomAi())
        const made = yield* read(client, CREATE_CODE, {
          input: { product, kind: "percent", value: 10, code: "FRIENDS" }
        })
        expect(made.createDiscountCode).toMatchObject({ ok: true })

        const reader = yield* harness.seller({ access: readOnlyAccess })
        const readOnly = harness.client(reader.token)
        expect(
          (yield* read(readOnly, "{ store { discountCodes { nodes { id } } } }")).store.discountCodes.nodes
        ).toEqual([])
        const refused = yield* read(readOnly, CREATE_CODE, {
          input: { product: "prod_x", kind: "percent", value: 10 }
        })
        expect(refused.createDiscountCode).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
        expect(refused.createDiscountCode.message).toContain("only read the store")

        const automation = harness.client(yield* harness.automationToken(seller.accountId))
        const listed = yield* read(automation, "{ store { discountCodes { nodes { code active } } } }")
        expect(listed.store.discountCodes.nodes).toEqual([{ code: "FRIENDS", active: true }])
        for (const answer of [
          (yield* read(automation, CREATE_CODE, { input: { product, kind: "percent", value: 10 } })).createDiscountCode,
          (yield* read(automation, DISABLE_CODE, { id: "FRIENDS" })).disableDiscountCode
        ]) {
          expect(answer).toMatchObject({ __typename: "ToolFailure", status: "forbidden" })
          expect(answer.message).toContain("automation connection")
        }
        const still = yield* read(client, `{ store { discountCode(id: "friends") { active } } }`)
        expect(still.store.discountCode).toEqual({ active: true })
      })
    )
  })
})
