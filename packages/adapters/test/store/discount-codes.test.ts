/**
 * Discount codes of the service's checkout: the store API's create, list, get and disable, every rule a new code is
 * held to, and the one guarded statement that counts a use, raced by concurrent checkouts, on the test database.
 */
import { describe, expect, it as plain, layer } from "@effect/vitest"
import { ApiKeys } from "@svc/core/auth"
import { Secrets, Transactor } from "@svc/core/shared"
import {
  type DiscountCode,
  DiscountCodeAnswer,
  DiscountCodeCreated,
  DiscountCodeRow,
  DiscountCodesRepo,
  discountCodeJson,
  priceAfterDiscount,
  RANDOM_CODE_ALPHABET,
  resolveStoreCaller,
  StoreDiscountCodes
} from "@svc/core/store"
import { StoreInvalid } from "@svc/core/store-api"
import { Effect, Layer } from "effect"
import { engineName } from "../support/database.js"
import { caller, exactly, StoreTest } from "./support.js"

type Harness = StoreTest["Type"]
type Seller = Effect.Effect.Success<ReturnType<Harness["seller"]>>
type Row = Record<string, unknown>

// The public address the store harness serves under (see ../webhooks/support.ts).
const PUBLIC_BASE = "http://store.test"
const RANDOM_CODE = new RegExp(`^[${RANDOM_CODE_ALPHABET}]{8}$`)

/** A draft product of `seller` through the store API (a code does not need the product live). */
const product = (t: Harness, s: Seller, fields: Row = { price_cents: 4900 }) =>
  Effect.gen(function* () {
    const created = yield* caller(t, s.token)("POST", "/products", { custom_ai_id: yield* s.newCustomAi(), ...fields })
    if (created.status !== 201) return yield* Effect.dieMessage(`POST /products: ${JSON.stringify(created.body)}`)
    return (created.body.product as { id: string }).id
  })

/** The paths of a 422's problems. */
const pathsOf = (body: Row) => exactly(StoreInvalid, body).errors.map((problem) => problem.path)

layer(StoreTest.layer, { timeout: "120 seconds", excludeTestServices: true })(
  `store discount codes (${engineName})`,
  (it) => {
    it.effect("creates a code as given, answering it with its checkout link at the top and inside", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const expiresAt = "2099-12-31T23:59:59.000Z"
        const created = yield* send("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 25,
          code: "  Spring-25 ",
          max_uses: 100,
          expires_at: expiresAt
        })
        expect(created.status).toBe(201)
        const answer = exactly(DiscountCodeCreated, created.body)
        const url = `${PUBLIC_BASE}/c/${id}?code=Spring-25`
        expect(answer).toMatchObject({ ok: true, code: "Spring-25", checkout_url: url })
        expect(answer.discount_code).toEqual({
          id: expect.stringMatching(/^dsc_/),
          product_id: id,
          code: "Spring-25",
          kind: "percent",
          value: 25,
          percent_off: 25,
          amount_off_cents: null,
          max_uses: 100,
          uses: 0,
          uses_left: 100,
          expires_at: expiresAt,
          active: true,
          disabled_at: null,
          created_at: expect.any(String),
          checkout_url: url
        })

        // Dollars off become whole cents; milliseconds are taken for expires_at as well as ISO text.
        const at = Date.UTC(2099, 0, 1)
        const amount = yield* send("POST", "/discount-codes", {
          product: id,
          kind: "amount",
          value: 19.99,
          code: "TAKE20",
          expires_at: at
        })
        expect(amount.status).toBe(201)
        expect(exactly(DiscountCodeCreated, amount.body).discount_code).toMatchObject({
          kind: "amount",
          value: 19.99,
          amount_off_cents: 1999,
          percent_off: null,
          max_uses: null,
          uses_left: null,
          expires_at: new Date(at).toISOString()
        })
      })
    )

    it.effect("makes up a random code when none is given, empty or null", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const codes: Array<string> = []
        for (const code of [undefined, "", "   ", null]) {
          const created = yield* send("POST", "/discount-codes", { product: id, kind: "amount", value: 5, code })
          expect(created.status).toBe(201)
          const answer = exactly(DiscountCodeCreated, created.body)
          expect(answer.code).toMatch(RANDOM_CODE)
          expect(answer.checkout_url).toBe(`${PUBLIC_BASE}/c/${id}?code=${answer.code}`)
          codes.push(answer.code)
        }
        expect(new Set(codes).size).toBe(codes.length)
      })
    )

    it.effect("draws again when a made-up code is taken, and says so when draw after draw is", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const id = yield* product(t, s)
        // The random bytes the service draws, scripted: the same 8 bytes twice, then others, then the first ones for
        // good.
        const same = [0, 1, 2, 3, 4, 5, 6, 7]
        const draws: Array<Array<number>> = [same, same, [31, 30, 29, 28, 27, 26, 25, 24]]
        const scripted = Layer.effect(
          Secrets,
          Effect.map(Secrets, (real) => ({
            ...real,
            randomBytes: (length: number) =>
              Effect.sync(() => Uint8Array.from((draws.shift() ?? same).slice(0, length)))
          }))
        )
        const made = yield* t.setUp(
          Effect.gen(function* () {
            const principal = yield* (yield* ApiKeys).authenticate(s.token)
            const storeCaller = yield* resolveStoreCaller(principal, true)
            const codes = yield* StoreDiscountCodes
            const input = { productId: id, kind: "percent" as const, value: 10 }
            const first = yield* codes.create(storeCaller, input)
            const second = yield* codes.create(storeCaller, input)
            // Every draw from here on makes the first code again, five times over.
            const third = yield* Effect.flip(codes.create(storeCaller, input))
            return { first: first.code, second: second.code, third }
          }).pipe(Effect.provide(StoreDiscountCodes.Default.pipe(Layer.provide(scripted))))
        )
        expect(made.first).toBe("ABCDEFGH")
        expect(made.second).toBe("98765432")
        expect(made.third).toMatchObject({ _tag: "Conflict", message: expect.stringContaining("try again") })
      })
    )

    it.effect("refuses a code the store already has in any case, disabled ones too, with 409 naming it", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const other = yield* product(t, s)
        const body = { product: id, kind: "percent", value: 10 }
        expect((yield* send("POST", "/discount-codes", { ...body, code: "Summer" })).status).toBe(201)
        const again = yield* send("POST", "/discount-codes", { ...body, product: other, code: "SUMMER" })
        expect(again.status).toBe(409)
        expect(again.body).toMatchObject({ ok: false, error: "conflict" })
        expect(again.body.message).toContain("Summer")
        expect(again.body.message).toContain("SUMMER")

        yield* send("POST", "/discount-codes/summer/disable")
        const afterDisable = yield* send("POST", "/discount-codes", { ...body, code: "summer" })
        expect(afterDisable.status).toBe(409)
        expect(afterDisable.body.message).toContain("turned off")

        // Another store may have the same code.
        const elsewhere = yield* t.seller()
        const theirs = yield* product(t, elsewhere)
        const mine = yield* caller(t, elsewhere.token)("POST", "/discount-codes", {
          ...body,
          product: theirs,
          code: "SUMMER"
        })
        expect(mine.status).toBe(201)
      })
    )

    it.effect("refuses each broken rule with 422 naming the field, and all of them at once", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const create = (fields: Row) =>
          send("POST", "/discount-codes", { product: id, kind: "percent", value: 10, ...fields })
        const refused = (fields: Row, path: string, words: string) =>
          Effect.gen(function* () {
            const answer = yield* create(fields)
            expect(answer.status, JSON.stringify(fields)).toBe(422)
            expect(pathsOf(answer.body), JSON.stringify(fields)).toEqual([path])
            expect(String(answer.body.message), JSON.stringify(fields)).toContain(words)
          })
        yield* refused({ kind: "percentage" }, "kind", '"percent" | "amount"')
        yield* refused({ value: 0 }, "value", "from 1 to 100")
        yield* refused({ value: 101 }, "value", "from 1 to 100")
        yield* refused({ value: 12.5 }, "value", "whole number")
        yield* refused({ value: "10" }, "value", "Expected number")
        yield* refused({ kind: "amount", value: 1.005 }, "value", "at most two decimals")
        yield* refused({ kind: "amount", value: 0 }, "value", "more than 0")
        yield* refused({ kind: "amount", value: -5 }, "value", "more than 0")
        yield* refused({ kind: "amount", value: 1_000_000 }, "value", "at most 999999.99")
        yield* refused({ code: "AB" }, "code", "3 to 24 letters, digits or dashes")
        yield* refused({ code: "A".repeat(25) }, "code", "3 to 24")
        yield* refused({ code: "SUMMER SALE" }, "code", "letters, digits or dashes")
        yield* refused({ code: "half_off" }, "code", "letters, digits or dashes")
        yield* refused({ code: "ÉTÉ-10" }, "code", "letters, digits or dashes")
        yield* refused({ max_uses: 0 }, "max_uses", "from 1 to")
        yield* refused({ max_uses: 2.5 }, "max_uses", "Expected an integer")
        yield* refused({ expires_at: "2020-01-01" }, "expires_at", "in the future")
        yield* refused({ expires_at: Date.now() - 1000 }, "expires_at", "in the future")
        yield* refused({ expires_at: "next tuesday" }, "expires_at", "ISO date")
        yield* refused({ expires_at: "2099-02-30" }, "expires_at", "ISO date")
        yield* refused({ expires_at: -1 }, "expires_at", "ISO date")
        yield* refused({ colour: "red" }, "colour", "")

        const many = yield* create({ value: 0, code: "x", max_uses: 0, expires_at: "2001-01-01" })
        expect(many.status).toBe(422)
        expect(pathsOf(many.body)).toEqual(["value", "code", "max_uses", "expires_at"])

        const missing = yield* send("POST", "/discount-codes", { kind: "percent" })
        expect(missing.status).toBe(422)
        expect(pathsOf(missing.body)).toEqual(expect.arrayContaining(["product"]))
      })
    )

    it.effect("takes codes only for this store's paid products sold at the service's checkout", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const create = (product: string) => send("POST", "/discount-codes", { product, kind: "percent", value: 10 })

        const free = yield* create(yield* product(t, s, { price_cents: 0 }))
        expect(free.status).toBe(422)
        expect(pathsOf(free.body)).toEqual(["product"])
        expect(free.body.message).toContain("free")
        expect(free.body.message).toContain("PATCH /products/<id>")

        const external = yield* create(
          yield* product(t, s, {
            price_cents: 4900,
            checkout_mode: "external",
            checkout_url: "https://pay.example.com/coach"
          })
        )
        expect(external.status).toBe(422)
        expect(pathsOf(external.body)).toEqual(["product"])
        expect(external.body.message).toContain("checkout_mode to svc")
        expect(external.body.message).toContain("PATCH /products/<id>")

        const elsewhere = yield* t.seller()
        const theirs = yield* create(yield* product(t, elsewhere))
        expect(theirs.status).toBe(404)
        expect(theirs.body).toMatchObject({ ok: false, error: "not_found" })
        expect((yield* create("prod_nope")).status).toBe(404)
      })
    )

    it.effect("needs a key that may change the store, and the Starter plan", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const owner = yield* t.seller()
        const id = yield* product(t, owner)
        const code = yield* caller(t, owner.token)("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 5
        })
        const codeId = (code.body.discount_code as { id: string }).id

        const reader = yield* t.setUp(
          Effect.flatMap(ApiKeys, (keys) =>
            Effect.flatMap(keys.authenticate(owner.token), (principal) =>
              keys.create(principal.accountId, { access: { kind: "custom", parts: { store: "read" } } })
            )
          ).pipe(Effect.orDie)
        )
        const read = caller(t, reader.token)
        expect((yield* read("GET", `/discount-codes/${codeId}`)).status).toBe(200)
        expect((yield* read("GET", "/discount-codes")).status).toBe(200)
        const write = yield* read("POST", "/discount-codes", { product: id, kind: "percent", value: 5 })
        expect(write.status).toBe(403)
        expect(write.body).toMatchObject({ ok: false, error: "forbidden", code: "api_key_access" })
        expect((yield* read("POST", `/discount-codes/${codeId}/disable`)).status).toBe(403)

        const free = yield* t.seller({ plan: "free" })
        const planAnswer = yield* caller(t, free.token)("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 5
        })
        expect(planAnswer.status).toBe(402)
        expect(planAnswer.body).toMatchObject({ ok: false, error: "plan_required" })
      })
    )

    it.effect("lists codes newest first, page by page, and of one product", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const first = yield* product(t, s)
        const second = yield* product(t, s)
        const made: Array<string> = []
        for (const [index, id] of [first, second, first, second, first].entries()) {
          const created = yield* send("POST", "/discount-codes", {
            product: id,
            kind: "percent",
            value: 10 + index,
            code: `CODE-${index}`
          })
          made.push((created.body.discount_code as { id: string }).id)
        }
        const pageOne = yield* send("GET", "/discount-codes?limit=2")
        expect(pageOne.status).toBe(200)
        expect(pageOne.body).toMatchObject({ ok: true, has_more: true })
        const rows = (answer: { body: Row }) =>
          (answer.body.data as Array<unknown>).map((row) => exactly(DiscountCodeRow, row))
        expect(rows(pageOne).map((row) => row.code)).toEqual(["CODE-4", "CODE-3"])
        const pageTwo = yield* send("GET", `/discount-codes?limit=2&starting_after=${pageOne.body.next_cursor}`)
        expect(rows(pageTwo).map((row) => row.code)).toEqual(["CODE-2", "CODE-1"])
        const pageThree = yield* send("GET", `/discount-codes?limit=2&starting_after=${pageTwo.body.next_cursor}`)
        expect(rows(pageThree).map((row) => row.code)).toEqual(["CODE-0"])
        expect(pageThree.body.has_more).toBe(false)

        const ofFirst = yield* send("GET", `/discount-codes?product=${first}`)
        expect(rows(ofFirst).map((row) => row.code)).toEqual(["CODE-4", "CODE-2", "CODE-0"])
        expect(rows(ofFirst).every((row) => row.product_id === first)).toBe(true)
        const ofNone = yield* send("GET", "/discount-codes?product=prod_nope")
        expect(ofNone.body).toMatchObject({ ok: true, data: [], has_more: false })

        // Another store sees none of them.
        const elsewhere = yield* t.seller()
        const theirs = yield* caller(t, elsewhere.token)("GET", "/discount-codes")
        expect(theirs.body).toMatchObject({ ok: true, data: [] })
        expect((yield* caller(t, elsewhere.token)("GET", `/discount-codes/${made[0]}`)).status).toBe(404)

        const badLimit = yield* send("GET", "/discount-codes?limit=0")
        expect(badLimit.status).toBe(400)
        expect(badLimit.body).toMatchObject({ ok: false, error: "bad_request" })
      })
    )

    it.effect("reads one code by id or by the code in any case", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const created = yield* send("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 50,
          code: "Half"
        })
        const codeId = (created.body.discount_code as { id: string }).id
        const byId = yield* send("GET", `/discount-codes/${codeId}`)
        expect(byId.status).toBe(200)
        expect(exactly(DiscountCodeAnswer, byId.body).discount_code).toEqual(created.body.discount_code)
        const byCode = yield* send("GET", "/discount-codes/hALF")
        expect(byCode.body).toEqual(byId.body)
        const unknown = yield* send("GET", "/discount-codes/NOPE")
        expect(unknown.status).toBe(404)
        expect(unknown.body).toMatchObject({ ok: false, error: "not_found" })
      })
    )

    it.effect("disables a code for good, keeping it; disabling again answers it unchanged", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const created = yield* send("POST", "/discount-codes", { product: id, kind: "amount", value: 10, code: "TEN" })
        const codeId = (created.body.discount_code as { id: string }).id
        const disabled = yield* send("POST", `/discount-codes/${codeId}/disable`)
        expect(disabled.status).toBe(200)
        const row = exactly(DiscountCodeAnswer, disabled.body).discount_code
        expect(row).toMatchObject({ id: codeId, code: "TEN", active: false, disabled_at: expect.any(String) })
        const again = yield* send("POST", "/discount-codes/ten/disable")
        expect(again.status).toBe(200)
        expect(again.body).toEqual(disabled.body)
        expect((yield* send("GET", `/discount-codes/${codeId}`)).body).toEqual(disabled.body)

        const used = yield* t.setUp(
          Effect.flatMap(DiscountCodesRepo, (repo) => repo.use(s.workspaceId, codeId, new Date()))
        )
        expect(used).toBe(false)
        expect((yield* send("POST", "/discount-codes/dsc_nope/disable")).status).toBe(404)
      })
    )

    it.effect("counts exactly one use of a single-use code raced by 50 checkouts, each in its own transaction", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const create = (fields: Row) =>
          Effect.map(
            send("POST", "/discount-codes", { product: id, kind: "percent", value: 100, ...fields }),
            (answer) => (answer.body.discount_code as { id: string }).id
          )
        const once = yield* create({ max_uses: 1 })
        const uncapped = yield* create({})
        const outcomes = yield* t.setUp(
          Effect.gen(function* () {
            const repo = yield* DiscountCodesRepo
            const transactor = yield* Transactor
            const race = (codeId: string) =>
              Effect.all(
                Array.from({ length: 50 }, () =>
                  transactor.withTransaction(repo.use(s.workspaceId, codeId, new Date()))
                ),
                { concurrency: "unbounded" }
              )
            return { once: yield* race(once), uncapped: yield* race(uncapped) }
          })
        )
        expect(outcomes.once.filter((used) => used)).toHaveLength(1)
        expect(outcomes.uncapped.every((used) => used)).toBe(true)
        const read = (codeId: string) =>
          Effect.map(send("GET", `/discount-codes/${codeId}`), (answer) => exactly(DiscountCodeAnswer, answer.body))
        expect((yield* read(once)).discount_code).toMatchObject({ uses: 1, uses_left: 0, active: false })
        expect((yield* read(uncapped)).discount_code).toMatchObject({ uses: 50, uses_left: null, active: true })
      })
    )

    it.effect("gives a use back when the checkout's transaction fails, and refuses an expired code", () =>
      Effect.gen(function* () {
        const t = yield* StoreTest
        const s = yield* t.seller()
        const send = caller(t, s.token)
        const id = yield* product(t, s)
        const expiresAt = Date.now() + 60_000
        const created = yield* send("POST", "/discount-codes", {
          product: id,
          kind: "percent",
          value: 20,
          max_uses: 1,
          expires_at: expiresAt
        })
        const codeId = (created.body.discount_code as { id: string }).id
        const outcome = yield* t.setUp(
          Effect.gen(function* () {
            const repo = yield* DiscountCodesRepo
            const transactor = yield* Transactor
            const failed = yield* Effect.either(
              transactor.withTransaction(
                Effect.zipRight(repo.use(s.workspaceId, codeId, new Date()), Effect.fail("payment declined"))
              )
            )
            const late = yield* repo.use(s.workspaceId, codeId, new Date(expiresAt + 1))
            const atTheEnd = yield* repo.use(s.workspaceId, codeId, new Date(expiresAt))
            const inTime = yield* repo.use(s.workspaceId, codeId, new Date())
            return { failed: failed._tag, late, atTheEnd, inTime, code: yield* repo.find(s.workspaceId, codeId) }
          })
        )
        expect(outcome).toMatchObject({ failed: "Left", late: false, atTheEnd: false, inTime: true })
        expect(outcome.code).toMatchObject({ _tag: "Some", value: { uses: 1 } })
      })
    )
  }
)

describe("discount code arithmetic", () => {
  plain("takes a percent off rounded to the nearest cent (half up), 100 % to nothing", () => {
    const percent = (percentOff: number) => ({ kind: "percent" as const, percentOff, amountOffCents: null })
    expect(priceAfterDiscount(4900, percent(25))).toBe(3675)
    // 15 % of 999 is 149.85 cents off: 150.
    expect(priceAfterDiscount(999, percent(15))).toBe(849)
    // 10 % of 1005 is 100.5 cents off: half up, 101.
    expect(priceAfterDiscount(1005, percent(10))).toBe(904)
    expect(priceAfterDiscount(4900, percent(100))).toBe(0)
    expect(priceAfterDiscount(100, percent(1))).toBe(99)
  })

  plain("takes an amount off, never below zero", () => {
    const amount = (amountOffCents: number) => ({ kind: "amount" as const, percentOff: null, amountOffCents })
    expect(priceAfterDiscount(4900, amount(1999))).toBe(2901)
    expect(priceAfterDiscount(4900, amount(4900))).toBe(0)
    expect(priceAfterDiscount(4900, amount(10_000))).toBe(0)
  })

  plain("says a code is active only while on, unexpired and under its cap", () => {
    const code: DiscountCode = {
      id: "dsc_1",
      workspaceId: "ws_1",
      productId: "prod_1",
      code: "Spring 25",
      kind: "percent",
      percentOff: 10,
      amountOffCents: null,
      maxUses: 3,
      uses: 2,
      expiresAt: new Date("2030-01-01T00:00:00Z"),
      disabledAt: null,
      createdAt: new Date("2026-01-01T00:00:00Z")
    }
    const context = { publicBase: "https://svc.example.com", now: new Date("2029-01-01T00:00:00Z") }
    const json = discountCodeJson(code, context)
    expect(json).toMatchObject({ active: true, uses_left: 1, value: 10 })
    // The code is put in the link's query encoded, whatever it holds.
    expect(json.checkout_url).toBe("https://svc.example.com/c/prod_1?code=Spring%2025")
    expect(discountCodeJson({ ...code, uses: 3 }, context)).toMatchObject({ active: false, uses_left: 0 })
    expect(discountCodeJson({ ...code, uses: 5 }, context).uses_left).toBe(0)
    expect(discountCodeJson(code, { ...context, now: new Date("2030-01-01T00:00:00Z") }).active).toBe(false)
    expect(discountCodeJson({ ...code, disabledAt: context.now }, context).active).toBe(false)
    expect(discountCodeJson({ ...code, kind: "amount", percentOff: null, amountOffCents: 999 }, context)).toMatchObject(
      { value: 9.99, amount_off_cents: 999, percent_off: null }
    )
  })
})
