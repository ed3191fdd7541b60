import { Clock, Effect, Option } from "effect"
import { makeEventRecorder } from "../../events/service.js"
import { RateLimiter } from "../../limits/ports.js"
import { RateLimited } from "../../limits/schema.js"
import { NotFound } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { makeAccessEmail } from "../sales/access-email.js"
import { makeBundleAccess } from "../sales/bundle-access.js"
import { makeBuyerJoin } from "../sales/buyer-join.js"
import { type ContentLink, ContentLinksRepo } from "../catalog/content-links.js"
import { makeCustomerImport } from "./customer-import.js"
import type { AddCustomerAnswer, GrantAccess } from "../sales/free-grant.js"
import { type Customer, hasAccess, type ProductAccess as Access } from "../sales/access.js"
import type { StoreCaller } from "../caller.js"
import { BadListRequest } from "../errors.js"
import { creationKey, pageAnswer, readListQuery, type StoreListQuery } from "../paging.js"
import { AccessRepo } from "../sales/ports.js"
import { ProductsRepo } from "../catalog/ports.js"
import { type StoreTag, StoreTagsRepo } from "../email-list/ports.js"
import { makeStock } from "../catalog/stock.js"
export type { AddCustomerAnswer } from "../sales/free-grant.js"

const accessLine = (a: Access, title: string, links: ReadonlyArray<ContentLink>, now: number) => {
  const has = hasAccess(a, now)
  return {
    product_id: a.productId,
    product_title: title,
    has_access: has,
    state: a.state,
    how: a.how,
    paid_until: a.paidUntil?.toISOString() ?? null,
    access_ends_at: a.endsAt?.toISOString() ?? null,
    bundle_id: a.viaBundleId,
    // Only people who can use the product see what it delivers.
    content_links: has ? links.map((l) => ({ title: l.title, url: l.url })) : []
  }
}

/** What the people's records are read with: product titles and the products' content links. */
interface RecordContext {
  readonly names: ReadonlyMap<string, string>
  readonly links: ReadonlyMap<string, ReadonlyArray<ContentLink>>
  readonly tagged: ReadonlyMap<string, ReadonlyArray<StoreTag>>
  readonly now: number
}

/** People who have the store's products: adding, finding, removing access, resending the access email. */
export class StoreCustomers extends Effect.Service<StoreCustomers>()("svc/store/StoreCustomers", {
  effect: Effect.gen(function* () {
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

    const customerJson = (customer: Customer, rows: ReadonlyArray<Access>, context: RecordContext) => {
      const { names, links, now, tagged } = context
      const lines = rows.map((a) => accessLine(a, names.get(a.productId) ?? "", links.get(a.productId) ?? [], now))
      return {
        id: customer.id,
        email: customer.email,
        name: customer.name,
        created_at: customer.createdAt.toISOString(),
        has_access: lines.some((l) => l.has_access),
        products_with_access: lines.filter((l) => l.has_access).map((l) => l.product_id),
        products: lines,
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
          return {
            ok: false,
            status: "rejected",
            reason: "product_not_live",
            message: "publish the product first"
          } as AddCustomerAnswer
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
            return {
              ok: false,
              status: "rejected",
              reason: "sold_out",
              message: away.message,
              waitlisted: away.waitlisted
            } as AddCustomerAnswer
          }
        }
        const person = yield* access.lock(product.workspaceId, product.id, input.email, now)
        if (switchedOff(person)) {
          return {
            ok: false,
            status: "rejected",
            reason: "access_off",
            message: `the seller switched off ${input.email}'s access; it stays off`
          } as AddCustomerAnswer
        }
        if (hasAccess(person, now.getTime())) return { ok: true, status: "already_has_access" } as AddCustomerAnswer
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
          yield* accessEmail.send(product, input.email, "added")
        }
        return { ok: true, status: "added" } as AddCustomerAnswer
      })

    /** Gives free access to a live product without counting a sale; never undoes the seller's switch-off. */
    const add = (
      caller: StoreCaller,
      input: {
        readonly product: string
        readonly email: string
        readonly name?: string | undefined
        readonly send_email?: boolean | undefined
      }
    ) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const found = yield* products.find(caller.workspaceId, input.product)
          if (Option.isNone(found)) {
            return {
              ok: false,
              status: "rejected",
              reason: "product_not_found",
              message: `no product ${input.product} in this store`
            } satisfies AddCustomerAnswer as AddCustomerAnswer
          }
          return yield* grant(found.value, { email: input.email, name: input.name }, "added", {
            sendEmail: input.send_email !== false,
            now: new Date(yield* Clock.currentTimeMillis)
          })
        })
      )

    const importRows = yield* makeCustomerImport(grant)

    /** Switches a person's access to a product off (a later free add cannot turn it back on). */
    const removeAccess = (caller: StoreCaller, input: { readonly product: string; readonly email: string }) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const product = yield* productOf(caller, input.product)
          const now = new Date(yield* Clock.currentTimeMillis)
          const person = yield* access.lock(caller.workspaceId, product.id, input.email, now)
          if (person.state === "none") {
            return yield* new NotFound({ message: `${input.email} has never had ${product.id}` })
          }
          const had = hasAccess(person, now.getTime())
          yield* access.save({ ...person, state: "removed", endsAt: now, updatedAt: now })
          yield* bundleAccess.takeBackIncluded(product, input.email, { state: "removed", endsAt: now }, now)
          return { ok: true as const, status: had ? ("removed" as const) : ("already_off" as const) }
        })
      )

    /** Sends the access email again; one per person per minute. */
    const resendAccessEmail = (caller: StoreCaller, input: { readonly product: string; readonly email: string }) =>
      Effect.gen(function* () {
        const product = yield* productOf(caller, input.product)
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
        return { ok: true as const, sent: true }
      })

    /** The customer find result: matches (zero or one person) with their access per product. */
    const find = (caller: StoreCaller, email: string, productId: string | undefined) =>
      Effect.gen(function* () {
        const customer = yield* access.findCustomer(caller.workspaceId, email)
        if (Option.isNone(customer)) return { ok: true as const, customers: [] }
        const rows = yield* access.accessOf(caller.workspaceId, email, productId)
        const context = yield* recordContext(caller.workspaceId, [email], rows)
        // The spec's find result names the per-product lines `access`; the list row's `products` is not repeated.
        const { products: lines, ...person } = customerJson(customer.value, rows, context)
        return { ok: true as const, customers: [{ ...person, access: lines }] }
      })

    /** One customer by email. */
    const get = (caller: StoreCaller, email: string) =>
      Effect.gen(function* () {
        const customer = yield* access.findCustomer(caller.workspaceId, email)
        if (Option.isNone(customer)) return yield* new NotFound({ message: `no customer ${email} in this store` })
        const rows = yield* access.accessOf(caller.workspaceId, email)
        const context = yield* recordContext(caller.workspaceId, [email], rows)
        return { ok: true as const, customer: customerJson(customer.value, rows, context) }
      })

    /** Paged customers, newest first, each with every product they have. */
    const listPage = (
      caller: StoreCaller,
      query: StoreListQuery & {
        readonly product?: string | undefined
        readonly has_access?: string | undefined
        readonly tag?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        if (query.has_access !== undefined && query.has_access !== "true" && query.has_access !== "false") {
          return yield* new BadListRequest({ message: "has_access must be true or false" })
        }
        const { page, range } = yield* readListQuery(query)
        const now = yield* Clock.currentTimeMillis
        const rows = yield* access.listCustomers(
          caller.workspaceId,
          {
            productId: query.product,
            hasAccess: query.has_access === undefined ? undefined : query.has_access === "true",
            tag: query.tag?.trim() || undefined,
            now: new Date(now),
            ...range
          },
          page
        )
        const accessRows = yield* Effect.forEach(rows.rows, (customer) =>
          access.accessOf(caller.workspaceId, customer.email)
        )
        const context = yield* recordContext(
          caller.workspaceId,
          rows.rows.map((c) => c.email),
          accessRows.flat()
        )
        const withAccess = rows.rows.map((customer, i) => ({
          customer,
          json: customerJson(customer, accessRows[i] ?? [], { ...context, now })
        }))
        return pageAnswer(
          { rows: withAccess, next: rows.next },
          (row) => row.json,
          page,
          (row) => creationKey(row.customer)
        )
      })

    return { add, importRows, removeAccess, resendAccessEmail, find, get, listPage } as const
  })
}) {}
