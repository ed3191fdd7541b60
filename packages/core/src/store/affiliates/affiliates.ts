import { Clock, Effect, Encoding, Option } from "effect"
import { WorkspacesRepo } from "../../accounts/ports.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { makeEventRecorder } from "../../events/service.js"
import { Mailer } from "../../mail/ports.js"
import { affiliateWelcomeEmail } from "../../mail/templates.js"
import { Conflict, FieldProblem, InvalidInput, invalid, NotFound } from "../../shared/errors.js"
import { Ids, Secrets, Transactor } from "../../shared/ports.js"
import { unstorableText } from "../../shared/storable-text.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { StorePages } from "../catalog/store-pages.js"
import { readEmailAddress } from "../email-list/email-address.js"
import { STORE_CURRENCY } from "../sales/sale.js"
import {
  AFFILIATE_CODE,
  AFFILIATE_NAME_MAX,
  AFFILIATE_NOTE_MAX,
  type Affiliate,
  type AffiliateProgram,
  type AffiliateStatus,
  COMMISSION_PERCENT_MAX,
  type CommissionKind,
  COOKIE_DAYS_DEFAULT,
  COOKIE_DAYS_MAX,
  normalCode
} from "./affiliate.js"
import { parseInstant } from "../../shared/list-query.js"
import type { AffiliateListQuery } from "./affiliate-query.js"
import { AffiliatesRepo } from "./ports.js"

const DAY_MS = 86_400_000
/** The largest fixed commission, in cents. */
const FIXED_MAX_CENTS = 99_999_999

/** Changes to a product's program: a field left out keeps its value (a new program takes the defaults). */
export interface ProgramChanges {
  readonly commissionKind?: CommissionKind | undefined
  readonly commissionValue?: number | undefined
  readonly cookieDays?: number | undefined
  readonly approval?: boolean | undefined
  readonly active?: boolean | undefined
}

/** A new affiliate, as the seller adds them or a person applies. */
export interface AffiliateInput {
  readonly email: string
  readonly name?: string | undefined
  /** Their code; left out, one is made from their name or at random. */
  readonly code?: string | undefined
  readonly note?: string | undefined
}

/** An affiliate with their product's title and the link they share. */
export interface DescribedAffiliate {
  readonly affiliate: Affiliate
  readonly productTitle: string
  readonly link: string
}

/** A program with where people apply (null while the store has no handle). */
export interface DescribedProgram {
  readonly program: AffiliateProgram
  readonly applyUrl: string | null
}

/** What the seller decides on an affiliate. */
export type AffiliateDecision = "accept" | "decline" | "remove"

const programProblems = (program: AffiliateProgram) => {
  const problems: Array<FieldProblem> = []
  const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))
  const value = program.commissionValue
  if (
    program.commissionKind === "percent" &&
    !(Number.isInteger(value) && value >= 1 && value <= COMMISSION_PERCENT_MAX)
  ) {
    problem("commission_value", `a percent commission is a whole number from 1 to ${COMMISSION_PERCENT_MAX}`)
  }
  if (program.commissionKind === "fixed" && !(Number.isInteger(value) && value >= 1 && value <= FIXED_MAX_CENTS)) {
    problem("commission_value", `a fixed commission is a whole number of cents from 1 to ${FIXED_MAX_CENTS}`)
  }
  if (!(Number.isInteger(program.cookieDays) && program.cookieDays >= 1 && program.cookieDays <= COOKIE_DAYS_MAX)) {
    problem("cookie_days", `cookie_days is a whole number of days from 1 to ${COOKIE_DAYS_MAX}`)
  }
  return problems
}

const refuse = (problems: ReadonlyArray<FieldProblem>) =>
  new InvalidInput({ message: problems.map((p) => `${p.path}: ${p.message}`).join("; "), errors: problems })

/**
 * Affiliates: a product's program (commission, cookie window, approval), the people who promote it with their own
 * link (`/c/<product>?via=<code>`), added by the seller or applying on the store's page, and what they earned in a
 * period. The commissions themselves are written with the sales (`commissions.ts`).
 */
export class StoreAffiliates extends Effect.Service<StoreAffiliates>()("svc/store/StoreAffiliates", {
  effect: Effect.gen(function* () {
    const repo = yield* AffiliatesRepo
    const products = yield* ProductsRepo
    const workspaces = yield* WorkspacesRepo
    const ids = yield* Ids
    const secrets = yield* Secrets
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const mailer = yield* Mailer
    const { publicBase } = yield* StorePages

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const productOf = (workspaceId: string, productId: string, field = "product") =>
      Effect.flatMap(products.find(workspaceId, productId.trim()), (found) =>
        Option.isSome(found) && found.value.kind !== "question"
          ? Effect.succeed(found.value)
          : Effect.fail(
              Option.isSome(found)
                ? invalid(field, "a paid question has no affiliate program")
                : new NotFound({ message: `no product ${productId} in this store`, next: { _tag: "ListProducts" } })
            )
      )

    /** The link an affiliate shares: the product's checkout with their code. */
    const linkOf = (affiliate: Pick<Affiliate, "productId" | "code">) =>
      `${publicBase}/c/${encodeURIComponent(affiliate.productId)}?via=${encodeURIComponent(affiliate.code)}`

    /** Where people apply to promote a product, when the store has a handle. */
    const applyUrlOf = (workspaceId: string, productId: string) =>
      Effect.map(
        workspaces.findStore(workspaceId),
        Option.map((store) => `${publicBase}/s/${store.handle}/affiliates/${encodeURIComponent(productId)}`)
      )

    /** A product's program; none until the seller sets one. */
    const program = (caller: StoreCaller, productId: string) =>
      Effect.gen(function* () {
        const product = yield* productOf(caller.workspaceId, productId)
        return { product, program: yield* repo.findProgram(caller.workspaceId, product.id) }
      })

    /** Sets a product's program; a new one needs its commission. InvalidInput names each broken rule. */
    const setProgram = (caller: StoreCaller, productId: string, changes: ProgramChanges) =>
      Effect.gen(function* () {
        const product = yield* productOf(caller.workspaceId, productId)
        const current = yield* repo.findProgram(caller.workspaceId, product.id)
        const at = yield* now
        if (Option.isNone(current) && (changes.commissionKind === undefined || changes.commissionValue === undefined)) {
          return yield* invalid("commission_kind", "a new program needs commission_kind and commission_value")
        }
        const base = Option.getOrUndefined(current)
        const next: AffiliateProgram = {
          workspaceId: caller.workspaceId,
          productId: product.id,
          commissionKind: changes.commissionKind ?? base?.commissionKind ?? "percent",
          commissionValue: changes.commissionValue ?? base?.commissionValue ?? 0,
          cookieDays: changes.cookieDays ?? base?.cookieDays ?? COOKIE_DAYS_DEFAULT,
          approval: changes.approval ?? base?.approval ?? true,
          active: changes.active ?? base?.active ?? true,
          createdAt: base?.createdAt ?? at,
          updatedAt: at
        }
        const problems = programProblems(next)
        if (problems.length > 0) return yield* refuse(problems)
        yield* repo.saveProgram(next)
        return { product, program: next }
      })

    /** The fields of a new affiliate, checked; a code left out is made from the name, else at random. */
    const readInput = (input: AffiliateInput) =>
      Effect.gen(function* () {
        const problems: Array<FieldProblem> = []
        const problem = (path: string, message: string) => problems.push(new FieldProblem({ path, message }))
        const email = yield* Effect.either(readEmailAddress("email", input.email))
        if (email._tag === "Left") problem("email", "the email must be an address like name@example.com")
        const name = input.name?.trim() ?? ""
        if (name.length > AFFILIATE_NAME_MAX || unstorableText(name) !== undefined) {
          problem("name", `the name must be at most ${AFFILIATE_NAME_MAX} characters of text`)
        }
        const note = input.note?.trim() ?? ""
        if (note.length > AFFILIATE_NOTE_MAX || unstorableText(note) !== undefined) {
          problem("note", `the note must be at most ${AFFILIATE_NOTE_MAX} characters of text`)
        }
        const given = input.code === undefined ? undefined : normalCode(input.code)
        if (given !== undefined && !AFFILIATE_CODE.test(given)) {
          problem("code", "the code is 3 to 32 lower-case letters, digits or dashes, starting and ending with one")
        }
        if (problems.length > 0 || email._tag === "Left") return yield* refuse(problems)
        const fromName = name
          .normalize("NFKD")
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-+|-+$/g, "")
          .slice(0, 20)
          .replace(/-+$/g, "")
        const random = Encoding.encodeHex(yield* secrets.randomBytes(3))
        const code = given ?? (fromName.length >= 2 ? `${fromName}-${random}` : `aff-${random}`)
        return { email: email.right, name: name === "" ? null : name, note: note === "" ? null : note, code }
      })

    const affiliateData = (affiliate: Affiliate, product: Product) => ({
      affiliate_id: affiliate.id,
      product_id: product.id,
      product_title: product.fields.title,
      email: affiliate.email,
      name: affiliate.name,
      code: affiliate.code,
      status: affiliate.status,
      link: linkOf(affiliate),
      created_at: affiliate.createdAt.toISOString()
    })

    /** A new active affiliate: `affiliate.created`, and their link by email. */
    const welcome = (affiliate: Affiliate, product: Product) =>
      Effect.gen(function* () {
        yield* recordEvent(product.workspaceId, "affiliate.created", affiliateData(affiliate, product))
        const found = yield* repo.findProgram(product.workspaceId, product.id)
        if (Option.isNone(found)) return
        const store = yield* workspaces.findStore(product.workspaceId)
        const { commissionKind, commissionValue, cookieDays } = found.value
        yield* mailer.send({
          workspaceId: product.workspaceId,
          to: affiliate.email,
          ...affiliateWelcomeEmail({
            storeName: Option.match(store, { onNone: () => "The seller", onSome: (s) => s.name }),
            productTitle: product.fields.title,
            link: linkOf(affiliate),
            earns:
              commissionKind === "percent"
                ? `${commissionValue}% of what the buyer pays`
                : `${(commissionValue / 100).toFixed(2)} ${STORE_CURRENCY.toUpperCase()}`,
            cookieDays
          })
        })
      })

    /** Adds an affiliate, `status` as given; Conflict when the email or the code is taken. */
    const insert = (product: Product, input: AffiliateInput, status: AffiliateStatus, application: boolean) =>
      Effect.gen(function* () {
        const read = yield* readInput(input)
        const at = yield* now
        const affiliate: Affiliate = {
          id: yield* ids.make("aff_"),
          workspaceId: product.workspaceId,
          productId: product.id,
          email: read.email,
          name: read.name,
          code: read.code,
          status,
          note: read.note,
          createdAt: at,
          decidedAt: status === "pending" ? null : at
        }
        if (Option.isSome(yield* repo.findByEmail(product.workspaceId, product.id, read.email))) {
          return yield* new Conflict({ message: `${read.email} is already an affiliate of ${product.fields.title}` })
        }
        if (!(yield* repo.insertAffiliate(affiliate))) {
          // Another request added this person meanwhile, or the code is someone else's.
          if (Option.isSome(yield* repo.findByEmail(product.workspaceId, product.id, read.email))) {
            return yield* new Conflict({ message: `${read.email} is already an affiliate of ${product.fields.title}` })
          }
          return yield* invalid("code", `the code ${read.code} is taken in this store; choose another`)
        }
        const data = affiliateData(affiliate, product)
        if (application) {
          yield* recordEvent(product.workspaceId, "affiliate_application.created", { ...data, note: affiliate.note })
        }
        if (status === "active") yield* welcome(affiliate, product)
        return affiliate
      })

    /** The seller adds an affiliate to a product's program: active at once. */
    const add = (caller: StoreCaller, productId: string, input: AffiliateInput) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(caller.workspaceId, productId)
          const found = yield* repo.findProgram(caller.workspaceId, product.id)
          if (Option.isNone(found)) {
            return yield* invalid("product", `${product.fields.title} has no affiliate program; set one first`)
          }
          return { affiliate: yield* insert(product, input, "active", false), product }
        })
      )

    /**
     * A person applies on the store's page to promote a product: pending when the program wants approval, active at
     * once otherwise. NotFound when the product has no program on.
     */
    const apply = (workspaceId: string, productId: string, input: AffiliateInput) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(workspaceId, productId)
          const found = yield* repo.findProgram(workspaceId, product.id)
          if (Option.isNone(found) || !found.value.active || product.status !== "live") {
            return yield* new NotFound({ message: `${product.fields.title} takes no affiliates` })
          }
          const affiliate = yield* insert(product, input, found.value.approval ? "pending" : "active", true)
          return { affiliate, product, program: found.value }
        })
      )

    const find = (caller: StoreCaller, id: string) =>
      Effect.flatMap(repo.findAffiliate(caller.workspaceId, id.trim()), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new NotFound({ message: `no affiliate ${id} in this store` })),
          onSome: Effect.succeed
        })
      )

    /** Accepts a pending applicant (active, `affiliate.created`), declines one, or removes an active affiliate. */
    const decide = (caller: StoreCaller, id: string, decision: AffiliateDecision) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const affiliate = yield* find(caller, id)
          const allowed: Record<AffiliateDecision, ReadonlyArray<AffiliateStatus>> = {
            accept: ["pending", "declined"],
            decline: ["pending"],
            remove: ["active", "pending"]
          }
          if (!allowed[decision].includes(affiliate.status)) {
            return yield* new Conflict({
              message: `affiliate ${affiliate.id} is ${affiliate.status}: cannot ${decision}`
            })
          }
          const status: AffiliateStatus =
            decision === "accept" ? "active" : decision === "decline" ? "declined" : "removed"
          const at = yield* now
          yield* repo.setStatus(caller.workspaceId, affiliate.id, status, at)
          const decided: Affiliate = { ...affiliate, status, decidedAt: at }
          if (status === "active") yield* welcome(decided, yield* productOf(caller.workspaceId, affiliate.productId))
          return decided
        })
      )

    /**
     * An affiliate's commissions made in [from, to) (ISO or milliseconds): what they earned, and what refunds took
     * back. InvalidInput names a bound that is not a time, or a period backwards or over 366 days.
     */
    const payouts = (caller: StoreCaller, id: string, bounds: { readonly from: string; readonly to: string }) =>
      Effect.gen(function* () {
        const affiliate = yield* find(caller, id)
        const from = parseInstant(bounds.from.trim())
        if (from === undefined) return yield* invalid("from", "from must be an ISO date or milliseconds since 1970")
        const to = parseInstant(bounds.to.trim())
        if (to === undefined) return yield* invalid("to", "to must be an ISO date or milliseconds since 1970")
        const period = { from, to }
        if (!(period.from.getTime() < period.to.getTime())) {
          return yield* invalid("to", "the period's end must be after its start")
        }
        if (period.to.getTime() - period.from.getTime() > 366 * DAY_MS) {
          return yield* invalid("to", "a payout report covers at most 366 days")
        }
        const totals = yield* repo.payoutTotals(caller.workspaceId, affiliate.id, period.from, period.to)
        return { affiliate: yield* describe(affiliate), ...period, ...totals }
      })

    /** The store's affiliates, newest first, optionally of one product or status, each described. */
    const list = (caller: StoreCaller, query: AffiliateListQuery) =>
      Effect.flatMap(
        repo.listAffiliates(
          caller.workspaceId,
          { productId: query.productId, status: query.status, ...query.created },
          query.page
        ),
        (page) => Effect.map(Effect.forEach(page.rows, describe), (rows) => ({ rows, next: page.next }))
      )

    /**
     * The affiliate behind a link's code for a product (`/c/<product>?via=<code>`), while they and the product's
     * program are on; none for another product's or another store's code.
     */
    const forLink = (productId: string, code: string) =>
      Effect.gen(function* () {
        const product = yield* products.findById(productId)
        if (Option.isNone(product)) return Option.none()
        const workspaceId = product.value.workspaceId
        const affiliate = yield* repo.findByCode(workspaceId, normalCode(code))
        if (Option.isNone(affiliate) || affiliate.value.status !== "active") return Option.none()
        if (affiliate.value.productId !== productId) return Option.none()
        const found = yield* repo.findProgram(workspaceId, productId)
        if (Option.isNone(found) || !found.value.active) return Option.none()
        return Option.some({ affiliate: affiliate.value, program: found.value })
      })

    /** An affiliate with their product's title and the link they share. */
    const describe = (affiliate: Affiliate) =>
      Effect.map(
        products.find(affiliate.workspaceId, affiliate.productId),
        (product): DescribedAffiliate => ({
          affiliate,
          productTitle: Option.match(product, { onNone: () => "", onSome: (p) => p.fields.title }),
          link: linkOf(affiliate)
        })
      )

    /** A program with where people apply. */
    const describeProgram = (found: AffiliateProgram) =>
      Effect.map(
        applyUrlOf(found.workspaceId, found.productId),
        (url): DescribedProgram => ({ program: found, applyUrl: Option.getOrNull(url) })
      )

    /** A product's program, for its public pages. */
    const programOf = (workspaceId: string, productId: string) => repo.findProgram(workspaceId, productId)

    return {
      programOf,
      describe,
      describeProgram,
      program,
      setProgram,
      add,
      apply,
      get: find,
      decide,
      list,
      payouts,
      forLink,
      linkOf,
      applyUrlOf
    } as const
  })
}) {}
