import { Clock, Duration, Effect, Layer, Option } from "effect"
import { WorkspacesRepo } from "../../accounts/ports.js"
import { Mailer } from "../../mail/ports.js"
import { reviewRequestEmail } from "../../mail/templates.js"
import { newClaim, runClaimLoop } from "../../shared/claim-loop.js"
import { Transactor } from "../../shared/ports.js"
import { withSpan } from "../../shared/spans.js"
import { ProductsRepo } from "../catalog/ports.js"
import { StorePages } from "../catalog/store-pages.js"
import { EmailContactsRepo } from "../email-list/ports.js"
import type { AccessState } from "../sales/access.js"
import { AccessRepo } from "../sales/ports.js"
import { ReviewRequestsRepo, type ReviewRequestOutcome } from "./ports.js"
import { type HeldReviewRequest, reviewUrlOf } from "./review-request.js"

/** How the review request worker of one process runs. */
export interface ReviewRequestWorkerOptions {
  /** How long a claim holds a request before another worker may take it over (after a crash). */
  readonly leaseMs: number
  /** Requests in flight at once in this process. */
  readonly concurrency?: number | undefined
  /** Wait between looks for due requests when nothing was due. */
  readonly idleMs?: number | undefined
}

/** The defaults of {@link ReviewRequestWorkerOptions}. */
export const DEFAULT_REVIEW_REQUEST_WORKER = { leaseMs: 60_000, concurrency: 4, idleMs: 60_000 } as const

// Access a buyer still holds, or held to its end: they used what they bought and may say what it was worth. Refunded
// or removed access (and a product the seller deleted) asks nothing.
const REVIEWABLE_STATES: ReadonlySet<AccessState> = new Set(["active", "cancelled", "ended"])

/** Claims up to `limit` review requests due now, held for `leaseMs`. */
export const claimDueReviewRequests = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const repo = yield* ReviewRequestsRepo
    return yield* repo.claimDue(yield* newClaim(leaseMs), limit)
  }).pipe(withSpan("ReviewRequests.claimDue", { attributes: { limit } }))

/**
 * Emails one held request its review link, in one transaction with its settling: sent, or dropped unsent when the
 * buyer's access was refunded or removed, the product deleted, or the buyer left the store's email list (they asked
 * the store to stop writing). A worker that lost its claim changes nothing.
 */
export const sendHeldReviewRequest = (held: HeldReviewRequest) =>
  Effect.gen(function* () {
    const repo = yield* ReviewRequestsRepo
    const products = yield* ProductsRepo
    const access = yield* AccessRepo
    const contacts = yield* EmailContactsRepo
    const workspaces = yield* WorkspacesRepo
    const mailer = yield* Mailer
    const { publicBase } = yield* StorePages
    yield* (yield* Transactor).withTransaction(
      Effect.gen(function* () {
        const found = yield* repo.lockClaimed(held.id, held.claimToken)
        if (Option.isNone(found)) return
        const request = found.value
        const now = new Date(yield* Clock.currentTimeMillis)
        const settle = (outcome: ReviewRequestOutcome) => repo.settle(request.id, request.claimToken, outcome, now)
        const product = yield* products.find(request.workspaceId, request.productId)
        if (Option.isNone(product)) return yield* settle({ state: "dropped", reason: "product_deleted" })
        const [person] = yield* access.accessOf(request.workspaceId, request.email, request.productId)
        if (person === undefined || !REVIEWABLE_STATES.has(person.state)) {
          return yield* settle({ state: "dropped", reason: person?.state ?? "no_access" })
        }
        const contact = yield* contacts.find(request.workspaceId, request.email)
        if (Option.isSome(contact) && contact.value.status !== "subscribed") {
          return yield* settle({ state: "dropped", reason: contact.value.status })
        }
        const store = yield* workspaces.findStore(request.workspaceId)
        yield* mailer.send({
          workspaceId: request.workspaceId,
          to: request.email,
          ...reviewRequestEmail({
            storeName: Option.match(store, { onNone: () => "The seller", onSome: (s) => s.name }),
            productTitle: product.value.fields.title,
            name: request.name,
            reviewUrl: reviewUrlOf(publicBase, request)
          })
        })
        yield* settle({ state: "sent" })
      })
    )
  }).pipe(withSpan("ReviewRequests.send", { attributes: { request: held.id } }))

/** One look: claims up to `concurrency` due requests and sends them; answers how many it claimed. */
export const runDueReviewRequests = (options: ReviewRequestWorkerOptions = DEFAULT_REVIEW_REQUEST_WORKER) =>
  Effect.gen(function* () {
    const concurrency = options.concurrency ?? DEFAULT_REVIEW_REQUEST_WORKER.concurrency
    const claimed = yield* claimDueReviewRequests(concurrency, options.leaseMs)
    yield* Effect.forEach(claimed, sendHeldReviewRequest, { concurrency, discard: true })
    return claimed.length
  })

/** A layer that keeps the review request loop running while it is alive; a failed send is retried after its lease. */
export const ReviewRequestWorkerLive = (options: ReviewRequestWorkerOptions = DEFAULT_REVIEW_REQUEST_WORKER) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (options.leaseMs < 2_000 || (options.concurrency ?? 1) < 1) {
        return yield* Effect.dieMessage("the review request lease must be at least 2 s and the concurrency at least 1")
      }
      yield* Effect.forkScoped(
        runClaimLoop({
          name: "review request worker",
          concurrency: options.concurrency ?? DEFAULT_REVIEW_REQUEST_WORKER.concurrency,
          claim: (room) => claimDueReviewRequests(room, options.leaseMs),
          run: sendHeldReviewRequest,
          describe: (request: HeldReviewRequest) => `review request ${request.id}`,
          idle: Effect.sleep(Duration.millis(options.idleMs ?? DEFAULT_REVIEW_REQUEST_WORKER.idleMs)),
          // One short transaction that writes to the outbox: finishing it on shutdown beats waiting out its lease.
          finishOnStop: true
        })
      )
    })
  )
