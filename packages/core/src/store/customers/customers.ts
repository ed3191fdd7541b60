import { LiveCharges } from "../checkout/live-charges.js"
import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { RateLimiter } from "../../limits/ports.js"
import { RateLimited } from "../../limits/schema.js"
import { NotFound } from "../../shared/errors.js"
import type { Page } from "../../shared/paging.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { makeAccessEmail } from "../sales/access-email.js"
import { makeBundleAccess } from "../sales/bundle-access.js"
import { makeBuyerJoin } from "../sales/buyer-join.js"
import { type ContentLink, ContentLinksRepo } from "../catalog/content-links.js"
import { makeCustomerImport } from "./customer-import.js"
import type {
  CustomerListQuery,
  CustomerProductLine,
  CustomerRecord,
  CustomerTarget,
  NewCustomer,
  RemoveAccessOutcome
} from "./customer-record.js"
import type { AddCustomerOutcome, AddCustomerRejection, GrantAccess } from "../sales/free-grant.js"
import { type Customer, hasAccess, type ProductAccess as Access } from "../sales/access.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { AccessRepo } from "../sales/ports.js"
import { ProductsRepo } from "../catalog/ports.js"
import type { Product } from "../catalog/product.js"
import { type StoreTag, StoreTagsRepo } from "../email-list/ports.js"
import { makeStock } from "../catalog/stock.js"

const productLine = (a: Access, title: string, links: ReadonlyArray<ContentLink>, now: number): CustomerProductLine => {
  const has = hasAccess(a, now)
  return {
    productId: a.productId,
    productTitle: title,
    hasAccess: has,
    state: a.state,
    how: a.how,
    paidUntil: a.paidUntil,
    accessEndsAt: a.endsAt,
    bundleId: a.viaBundleId,
    // Only people who can use the product see what it delivers.
    contentLinks: has ? links : []
  }
}

const granted = (status: "added" | "already_has_access"): AddCustomerOutcome => ({ status })

const rejected = (reason: Exclude<AddCustomerRejection, "sold_out">, message: string): AddCustomerOutcome => ({
  status: "rejected",
  reason,
  message
})

const soldOut = (message: string, waitlisted: boolean): AddCustomerOutcome => ({
  status: "rejected",
  reason: "sold_out",
  message,
  waitlisted
})

const noMatch: ReadonlyArray<CustomerRecord> = []

/** What the people's records are read with: product titles and the products' content links. */
interface RecordContext {
  readonly names: ReadonlyMap<string, string>
  readonly links: ReadonlyMap<string, ReadonlyArray<ContentLink>>
  readonly tagged: ReadonlyMap<string, ReadonlyArray<StoreTag>>
  readonly now: number
}

/** People who have the store's products: adding, finding, removing access, resending the access email. */
export class StoreCustomers extends Effect.Service<StoreCustomers>()("svc/store/StoreCustomers", {
  dependencies: [LiveCharges.Default],
  effect: Effect.gen(function* () {
    const liveCharges = yield* LiveCharges
    const products = yield* ProductsRepo
    const access = yield* AccessRepo
    const limiter = yield* RateLimiter
    const accessEmail = yield* makeAccessEmail
    const bundleAccess = yield* makeBundleAccess
    const ids = yield* Ids
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder
    const stock = yield* makeStock
    const tags = yield* StoreTagsRepo
    const contentLinks = yield* ContentLinksRepo
    const joinList = yield* makeBuyerJoin

    const titles = (workspaceId: string) =>
      Effect.map(products.listAll(workspaceId), (all) => new Map(all.map((p) => [p.id, p.fields.title])))

    /** Loads, in a few queries for all of them, what the records of these people's access rows show. */
    const recordContext = (workspaceId: string, emails: ReadonlyArray<string>, rows: ReadonlyArray<Access>) =>
      Effect.all({
        names: titles(workspaceId),
        links: contentLinks.listForProducts(workspaceId, [...new Set(rows.map((a) => a.productId))]),
        tagged: tags.tagsOf(workspaceId, emails),
        now: Clock.currentTimeMillis
      }) satisfies Effect.Effect<RecordContext>

    const recordOf = (customer: Customer, rows: ReadonlyArray<Access>, context: RecordContext): CustomerRecord => {
      const { names, links, now, tagged } = context
      return {
        customer,
        products: rows.map((a) => productLine(a, names.get(a.productId) ?? "", links.get(a.productId) ?? [], now)),
        tags: (tagged.get(customer.email) ?? []).map((t) => t.name)
      }
    }

    const productOf = (caller: StoreCaller, id: string) =>
      Effect.flatMap(products.find(caller.workspaceId, id), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(new NotFound({ message: `no product ${id} in this store` })),
          onSome: Effect.succeed
        })
      )

    /**
     * The grant every free face shares (`POST /customers`, the tools, an import): gives `product` to a person without
     * counting a sale, never undoing the seller's switch-off. Runs inside the caller's transaction.
     */
    const grant: GrantAccess = (product, input, how, options) =>
      Effect.gen(function* () {
        if (product.status !== "live") {
          return rejected("product_not_live", "publish the product first")
        }
        const now = options.now
        // The seller's switch-off answers first; a removed person does not hold a place. Only a limited product
        // can turn a free grant away, so others skip the read (an import makes hundreds of grants).
        const limited = product.fields.quantity_limit !== null
        const before = limited ? yield* access.accessOf(product.workspaceId, input.email, product.id) : []
        // Only the seller's own switch-off holds: a removal that took back what a bundle gave does not.
        const switchedOff = (a: Access) => a.state === "removed" && a.viaBundleId === null
        if (limited && !before.some(switchedOff)) {
          const away = yield* stock.turnAway(product, input.email, input.name ?? null, now, "add")
          if (away !== undefined) {
            return soldOut(away.message, away.waitlisted)
          }
        }
        const person = yield* access.lock(product.workspaceId, product.id, input.email, now)
        if (switchedOff(person)) {
          return rejected("access_off", `the seller switched off ${input.email}'s access; it stays off`)
        }
        if (hasAccess(person, now.getTime())) return granted("already_has_access")
        const name = input.name ?? person.name
        yield* access.save({
          ...person,
          name,
          state: "active",
          // A grant of the product itself makes the access the person's own: a later refund or end of a bundle
          // that once gave it must not take it away.
          how: person.viaBundleId !== null ? how : (person.how ?? how),
          viaBundleId: null,
          endsAt: null,
          grantedAt: person.grantedAt ?? now,
          updatedAt: now
        })
        yield* stock.gotProduct(product, input.email)
        yield* bundleAccess.giveIncluded(product, { email: input.email, name }, now)
        yield* access.ensureCustomer({
          id: yield* ids.make("cus_"),
          workspaceId: product.workspaceId,
          email: input.email,
          name,
          createdAt: now
        })
        if (person.state === "none") {
          yield* recordEvent(product.workspaceId, "customer.created", {
            product_id: product.id,
            product_title: product.fields.title,
            email: input.email,
            name,
            how,
            created_at: now.toISOString()
          })
        }
        yield* joinList(product.workspaceId, { email: input.email, name }, now, [product.id])
        if (options.sendEmail) {
          yield* accessEmail.send(product, input.email, "added", name)
        }
        return granted("added")
      })

    /** Gives free access to a live product without counting a sale; never undoes the seller's switch-off. */
    const add = (caller: StoreCaller, input: NewCustomer) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const found = yield* products.find(caller.workspaceId, input.productId)
          if (Option.isNone(found)) {
            return rejected("product_not_found", `no product ${input.productId} in this store`)
          }
          return yield* grant(found.value, { email: input.email, name: input.name }, "added", {
            sendEmail: input.sendEmail !== false,
            now: new Date(yield* Clock.currentTimeMillis)
          })
        })
      )

    const importRows = yield* makeCustomerImport(grant)

    /** Switches a person's access to a product off (a later free add cannot turn it back on). */
    const removeAccess = (caller: StoreCaller, input: CustomerTarget) =>
      Effect.gen(function* () {
        // A member who pays on Stripe stops paying first: Stripe is asked outside the transaction (over the network),
        // and a refusal leaves the access as it is.
        const product = yield* productOf(caller, input.productId)
        const now = new Date(yield* Clock.currentTimeMillis)
        const current = yield* access.accessOf(caller.workspaceId, input.email, product.id)
        const paying = current.find((row) => row.state === "active" || row.state === "cancelled")
        if (paying !== undefined) yield* liveCharges.cancelSubscription(caller.workspaceId, paying.subscriptionId)
        return yield* removeAccessHere(caller, product, input, now)
      })

    const removeAccessHere = (caller: StoreCaller, product: Product, input: CustomerTarget, now: Date) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const person = yield* access.lock(caller.workspaceId, product.id, input.email, now)
          if (person.state === "none") {
            return yield* new NotFound({ message: `${input.email} has never had ${product.id}` })
          }
          const had = hasAccess(person, now.getTime())
          yield* access.save({ ...person, state: "removed", endsAt: now, updatedAt: now })
          yield* bundleAccess.takeBackIncluded(product, input.email, { state: "removed", endsAt: now }, now)
          const outcome: RemoveAccessOutcome = { status: had ? "removed" : "already_off" }
          return outcome
        })
      )

    /** Sends the access email again; one per person per minute. */
    const resendAccessEmail = (caller: StoreCaller, input: CustomerTarget) =>
      Effect.gen(function* () {
        const product = yield* productOf(caller, input.productId)
        const rows = yield* access.accessOf(caller.workspaceId, input.email, product.id)
        const now = yield* Clock.currentTimeMillis
        if (!rows.some((a) => hasAccess(a, now))) {
          return yield* new NotFound({ message: `${input.email} has no access to ${product.id}` })
        }
        const slot = yield* limiter.take(`store-access-email:${caller.workspaceId}:${input.email}`, 1, 60_000)
        if (!slot.allowed) {
          return yield* new RateLimited({
            message: "one access email per person per minute; try again in a minute",
            retryAfterSeconds: Math.max(1, Math.ceil(slot.retryAfterMs / 1000))
          })
        }
        yield* accessEmail.send(product, input.email, "again")
      })

    /** The people with this email (zero or one), with their access to one product or to every product. */
    const find = (caller: StoreCaller, email: string, productId: string | undefined) =>
      Effect.gen(function* () {
        const customer = yield* access.findCustomer(caller.workspaceId, email)
        if (Option.isNone(customer)) return noMatch
        const rows = yield* access.accessOf(caller.workspaceId, email, productId)
        const context = yield* recordContext(caller.workspaceId, [email], rows)
        return [recordOf(customer.value, rows, context)]
      })

    /** One customer by email. */
    const get = (caller: StoreCaller, email: string) =>
      Effect.gen(function* () {
        const customer = yield* access.findCustomer(caller.workspaceId, email)
        if (Option.isNone(customer)) return yield* new NotFound({ message: `no customer ${email} in this store` })
        const rows = yield* access.accessOf(caller.workspaceId, email)
        const context = yield* recordContext(caller.workspaceId, [email], rows)
        return recordOf(customer.value, rows, context)
      })

    /** Paged customers, newest first, each with every product they have. */
    const listPage = (caller: StoreCaller, query: CustomerListQuery) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* access.listCustomers(
          caller.workspaceId,
          {
            productId: query.productId,
            hasAccess: query.hasAccess,
            tag: query.tag?.trim() || undefined,
            now: new Date(now),
            ...query.created
          },
          query.page
        )
        const accessRows = yield* Effect.forEach(rows.rows, (customer) =>
          access.accessOf(caller.workspaceId, customer.email)
        )
        const context = yield* recordContext(
          caller.workspaceId,
          rows.rows.map((c) => c.email),
          accessRows.flat()
        )
        const page: Page<CustomerRecord> = {
          rows: rows.rows.map((customer, i) => recordOf(customer, accessRows[i] ?? [], { ...context, now })),
          next: rows.next
        }
        return page
      })

    return { add, importRows, removeAccess, resendAccessEmail, find, get, listPage } as const
  })
}) {}
