import { Clock, Effect, Option } from "effect"
import { requireApiKeyFor, type StoreCaller } from "../../auth/store-caller.js"
import { Conflict, FieldProblem, InvalidInput, NotFound } from "../../shared/errors.js"
import { parseInstant } from "../../shared/list-query.js"
import { Ids, Secrets } from "../../shared/ports.js"
import { ProductsRepo } from "../catalog/ports.js"
import { MAX_PRICE_CENTS, type Product } from "../catalog/product.js"
import { DISCOUNT_CODE_PATTERN, type DiscountCode, type DiscountKind } from "./discount-code.js"
import type { DiscountCodeListQuery } from "./discount-code-query.js"
import { DiscountCodesRepo } from "./ports.js"

/** The most uses a code may be capped at: far past any real campaign, well inside the 32-bit `uses` column. */
export const DISCOUNT_MAX_USES_LIMIT = 1_000_000_000

/** The length of a code the service makes up. */
export const RANDOM_CODE_LENGTH = 8

/**
 * The letters and digits of a made-up code: upper case, without 0/O and 1/I, which a buyer copying it from an email
 * or a slide mixes up. 32 of them, so one random byte picks one evenly (256 is a multiple of 32).
 */
export const RANDOM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// A collision of two 8-character codes (32^8 ≈ 10^12 of them) within one store is rare; a few fresh draws settle it.
const RANDOM_CODE_TRIES = 5

/** A new discount code as a seller asks for it; the store API decodes its body into this. */
export interface NewDiscountCode {
  /** The product it takes money off (`prod_…`). */
  readonly productId: string
  readonly kind: DiscountKind
  /** With `percent`: a whole percent, 1 to 100. With `amount`: dollars off, more than 0, at most two decimals. */
  readonly value: number
  /** 3 to 24 letters, digits or dashes; empty, null or left out makes a random one. */
  readonly code?: string | null | undefined
  /** How many checkouts may use it, 1 or more; null or left out for no cap. */
  readonly maxUses?: number | null | undefined
  /** When it stops working: ISO date or milliseconds since 1970, in the future; null or left out for never. */
  readonly expiresAt?: string | number | null | undefined
}

/** The checked fields of a new code, before it has an id and a code. */
interface CheckedCode {
  readonly code: string | undefined
  readonly percentOff: number | null
  readonly amountOffCents: number | null
  readonly maxUses: number | null
  readonly expiresAt: Date | null
}

/** Reads "ISO date or milliseconds since 1970" as given in a JSON body: text, or a whole number. */
const instantOf = (value: string | number): Date | undefined =>
  typeof value === "number"
    ? Number.isSafeInteger(value) && value >= 0
      ? parseInstant(String(value))
      : undefined
    : parseInstant(value)

/** Dollars as whole cents, when they have at most two decimals (`9.99` → 999; `0.125` is refused). */
const centsOf = (dollars: number): number | undefined => {
  const cents = Math.round(dollars * 100)
  // Binary fractions: 19.99 * 100 is 1998.9999999999998, which is 1999 cents; 0.125 * 100 is 12.5, which is not.
  return Math.abs(dollars * 100 - cents) < 1e-6 ? cents : undefined
}

/**
 * Every rule a new code breaks, at once: the product must be paid for at the service's checkout, the value must fit
 * its kind, and the code, cap and end must be well formed.
 */
const checkNewCode = (product: Product, input: NewDiscountCode, now: Date) => {
  const problems: Array<FieldProblem> = []
  const problem = (path: string, message: string, changeProduct = false) =>
    problems.push(
      new FieldProblem(changeProduct ? { path, message, next: { _tag: "ChangeProduct" } } : { path, message })
    )
  if (product.fields.checkout_mode !== "svc") {
    problem(
      "product",
      `product ${product.id} is sold through its own checkout (checkout_mode external), which never sees the service's discount codes; set its checkout_mode to svc first`,
      true
    )
  } else if (product.fields.price_cents <= 0) {
    problem(
      "product",
      `product ${product.id} is free, and a free product needs no discount code; give it a price (price_cents above 0) first`,
      true
    )
  }

  let percentOff: number | null = null
  let amountOffCents: number | null = null
  if (input.kind === "percent") {
    if (Number.isInteger(input.value) && input.value >= 1 && input.value <= 100) percentOff = input.value
    else problem("value", "with kind percent, value is the percent off: a whole number from 1 to 100")
  } else {
    const cents = Number.isFinite(input.value) && input.value > 0 ? centsOf(input.value) : undefined
    if (cents !== undefined && cents >= 1 && cents <= MAX_PRICE_CENTS) amountOffCents = cents
    else {
      problem(
        "value",
        `with kind amount, value is the dollars off: more than 0, at most two decimals (like 5 or 9.99), at most ${(MAX_PRICE_CENTS / 100).toFixed(2)}`
      )
    }
  }

  const typed = input.code?.trim() ?? ""
  if (typed !== "" && !DISCOUNT_CODE_PATTERN.test(typed)) {
    problem("code", "code must be 3 to 24 letters, digits or dashes (like SPRING-25); leave it out for a random one")
  }

  const maxUses = input.maxUses ?? null
  if (maxUses !== null && !(Number.isInteger(maxUses) && maxUses >= 1 && maxUses <= DISCOUNT_MAX_USES_LIMIT)) {
    problem("max_uses", `max_uses must be a whole number from 1 to ${DISCOUNT_MAX_USES_LIMIT}; leave it out for no cap`)
  }

  let expiresAt: Date | null = null
  if (input.expiresAt !== undefined && input.expiresAt !== null) {
    const at = instantOf(input.expiresAt)
    if (at === undefined) {
      problem(
        "expires_at",
        "expires_at must be an ISO date (like 2027-06-01 or 2027-06-01T09:00:00Z) or milliseconds since 1970"
      )
    } else if (at.getTime() <= now.getTime()) {
      problem(
        "expires_at",
        `expires_at must be in the future (it is ${now.toISOString()} now); leave it out for a code that never expires`
      )
    } else expiresAt = at
  }

  if (problems.length > 0) {
    // A lone problem's next step ends the whole message too, as `invalid` does; with several, each keeps its own.
    const next = problems.length === 1 ? problems[0]?.next : undefined
    const message = problems.map((p) => p.message).join("; ")
    return Effect.fail(
      new InvalidInput(next === undefined ? { message, errors: problems } : { message, errors: problems, next })
    )
  }
  const checked: CheckedCode = {
    code: typed === "" ? undefined : typed,
    percentOff,
    amountOffCents,
    maxUses,
    expiresAt
  }
  return Effect.succeed(checked)
}

/**
 * The discount codes of the service's checkout: made, listed and turned off by the seller through the store API.
 * Making and turning off codes is seller set-up, like the store's settings, so it needs an API key: an automation
 * connection may read codes but not change them. Taking a use is the checkout's (`DiscountCodesRepo.use`).
 */
export class StoreDiscountCodes extends Effect.Service<StoreDiscountCodes>()("svc/store/StoreDiscountCodes", {
  effect: Effect.gen(function* () {
    const repo = yield* DiscountCodesRepo
    const products = yield* ProductsRepo
    const ids = yield* Ids
    const secrets = yield* Secrets

    // From the random-bytes port, not a seeded generator: a code can be a private gift worth the whole price, and
    // codes drawn from one predictable stream for every store could be guessed from a few codes of one's own store.
    const randomCode = Effect.map(secrets.randomBytes(RANDOM_CODE_LENGTH), (bytes) =>
      Array.from(bytes, (byte) => RANDOM_CODE_ALPHABET[byte % RANDOM_CODE_ALPHABET.length]).join("")
    )

    const productOf = (workspaceId: string, id: string) =>
      Effect.flatMap(products.find(workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () =>
            Effect.fail(
              new NotFound({
                message: `no product ${id} in this store`,
                next: { _tag: "ListProducts" }
              })
            ),
          onSome: Effect.succeed
        })
      )

    const taken = (code: string, existing: DiscountCode) =>
      new Conflict({
        message:
          `the store already has the code ${existing.code}` +
          (existing.code === code ? "" : ` (codes match in any case, so ${code} is the same code)`) +
          (existing.disabledAt === null ? "" : ", turned off but kept for the sales that used it") +
          "; choose another code, or leave code out for a random one"
      })

    /**
     * Makes a code for one of the store's products: the seller's code, or a random one of {@link RANDOM_CODE_LENGTH}
     * characters. 404 for a product of another store; `InvalidInput` listing every broken rule; `Conflict` when the
     * store has the code already, in any case.
     */
    const create = (caller: StoreCaller, input: NewDiscountCode) =>
      Effect.gen(function* () {
        yield* requireApiKeyFor(caller, "manage discount codes")
        const product = yield* productOf(caller.workspaceId, input.productId)
        const now = new Date(yield* Clock.currentTimeMillis)
        const checked = yield* checkNewCode(product, input, now)
        const id = yield* ids.make("dsc_")
        const withCode = (code: string): DiscountCode => ({
          id,
          workspaceId: caller.workspaceId,
          productId: product.id,
          code,
          kind: input.kind,
          percentOff: checked.percentOff,
          amountOffCents: checked.amountOffCents,
          maxUses: checked.maxUses,
          uses: 0,
          expiresAt: checked.expiresAt,
          disabledAt: null,
          createdAt: now
        })
        const chosen = checked.code
        if (chosen !== undefined) {
          // Looked up first for a message naming the code as the store has it; the insert still decides a race.
          const existing = yield* repo.findByCode(caller.workspaceId, chosen)
          if (Option.isSome(existing)) return yield* taken(chosen, existing.value)
          const code = withCode(chosen)
          if (yield* repo.insert(code)) return code
          const winner = yield* repo.findByCode(caller.workspaceId, chosen)
          return yield* Option.match(winner, {
            onNone: () => Effect.dieMessage(`discount code ${chosen} clashed with a code that is gone`),
            onSome: (found) => Effect.fail(taken(chosen, found))
          })
        }
        for (let attempt = 0; attempt < RANDOM_CODE_TRIES; attempt++) {
          const code = withCode(yield* randomCode)
          if (yield* repo.insert(code)) return code
        }
        return yield* new Conflict({
          message: `${RANDOM_CODE_TRIES} random codes in a row were taken in this store; try again, or choose a code`
        })
      })

    /** The store's codes, newest first, optionally of one product. */
    const listPage = (caller: StoreCaller, query: DiscountCodeListQuery) =>
      repo.listPage(caller.workspaceId, { productId: query.productId, ...query.created }, query.page)

    /**
     * One code, by its id (`dsc_…`) or by the code itself in any case: ids hold an underscore, which no code may,
     * so the two never meet.
     */
    const get = (caller: StoreCaller, ref: string) =>
      Effect.flatMap(
        DISCOUNT_CODE_PATTERN.test(ref.trim())
          ? repo.findByCode(caller.workspaceId, ref)
          : repo.find(caller.workspaceId, ref),
        (found) =>
          Option.match(found, {
            onNone: () =>
              Effect.fail(
                new NotFound({
                  message: `no discount code ${ref} in this store`
                })
              ),
            onSome: Effect.succeed
          })
      )

    /**
     * Turns a code off for good: the checkout refuses it from now on, and the row stays, since sales name the code
     * they used. Turning off a code that is off already answers it as it is.
     */
    const disable = (caller: StoreCaller, ref: string) =>
      Effect.gen(function* () {
        yield* requireApiKeyFor(caller, "manage discount codes")
        const code = yield* get(caller, ref)
        const now = new Date(yield* Clock.currentTimeMillis)
        const disabled = yield* repo.disable(caller.workspaceId, code.id, now)
        return yield* Option.match(disabled, {
          onNone: () =>
            Effect.fail(
              new NotFound({
                message: `no discount code ${ref} in this store`
              })
            ),
          onSome: Effect.succeed
        })
      })

    return { create, listPage, get, disable } as const
  })
}) {}
