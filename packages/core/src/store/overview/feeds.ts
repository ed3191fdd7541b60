import { Clock, Effect, Option, Schema } from "effect"
import type { EventRecord } from "../../events/schema.js"
import { ContactTaggedRow, EmailSignupRow } from "../email-list/email-contact.js"
import {
  CohortSignupRow,
  CustomerFeedRow,
  MembershipChangeRow,
  MembershipPaymentRow,
  RefundFeedRow,
  SaleFeedRow
} from "./feed-rows.js"
import type { StoreCaller } from "../../auth/store-caller.js"
import { FEED_SELECTIONS, type FeedSelection } from "../../events/feed-selections.js"
import { AffiliateApplicationFeedRow, AffiliateFeedRow, AffiliateSaleFeedRow } from "../affiliates/affiliate-api.js"
import { LessonCompletedFeedRow, LessonQuestionFeedRow } from "../courses/lesson-api.js"
import { FormCompletedRow } from "../forms/api.js"
import { PaidQuestionFeedRow } from "../questions/question-api.js"
import { ReviewFeedRow, TestimonialFeedRow } from "../reviews/review-api.js"
import { StoreFeedRepo } from "./ports.js"

/** Events a feed shows: up to 50, from the last 30 days. */
export const FEED_SIZE = 50
const FEED_DAYS = 30

/**
 * The polling feeds of the store, each a view of the event log. A feed answers its rows: an event's data (the
 * webhooks' wire format, by design) with the event's id and time, each checked against the feed's row schema; the
 * store API adds `ok` (`feed-json.ts`).
 */
export class StoreFeeds extends Effect.Service<StoreFeeds>()("svc/store/StoreFeeds", {
  effect: Effect.gen(function* () {
    const repo = yield* StoreFeedRepo

    const read = (
      caller: StoreCaller,
      selection: FeedSelection,
      productId: string | undefined,
      narrow: { readonly tag?: string | undefined; readonly quizId?: string | undefined } = {}
    ) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        repo.recent(caller.workspaceId, {
          ...selection,
          since: new Date(now - FEED_DAYS * 86_400_000),
          productId,
          ...narrow,
          limit: FEED_SIZE
        })
      )

    // The event id is the row id: stable, and each renewal and refund has its own.
    const row = (event: EventRecord, extra: Record<string, unknown> = {}) => ({
      ...event.data,
      ...extra,
      id: event.id,
      created_at: event.createdAt.toISOString()
    })

    // Every row goes through its feed's schema, so a feed answers exactly the fields it documents; an
    // event whose data does not fit (never written by this version) is logged and left out, not a 500.
    const rows = <A, I>(
      schema: Schema.Schema<A, I>,
      events: ReadonlyArray<EventRecord>,
      toRow: (event: EventRecord) => unknown
    ) =>
      Effect.map(
        Effect.forEach(events, (event) =>
          Schema.decodeUnknown(schema)(toRow(event)).pipe(
            Effect.tapError((error) =>
              Effect.logWarning(`event ${event.id} (${event.type}) does not fit its feed row`, error.message)
            ),
            Effect.option
          )
        ),
        (decoded) => decoded.filter(Option.isSome).map((o) => o.value)
      )

    /** New paid sales (free claims, refunds and test sales left out); each row is the sale row. */
    const sales = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.sales, productId), (events) =>
        rows(SaleFeedRow, events, (e) => ({ ...e.data, event_id: e.id }))
      )

    /** New customers however they came: bought, free, own checkout, added. */
    const customers = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.customers, productId), (events) =>
        rows(CustomerFeedRow, events, (e) => row(e))
      )

    /** Membership payments: the first one and every renewal, each its own id. */
    const payments = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.membershipPayments, productId), (events) =>
        rows(MembershipPaymentRow, events, (e) =>
          e.type === "membership.renewed" ? row(e) : row(e, { sale_id: e.data.id, payment: "first" })
        )
      )

    /** Memberships cancelled or ended: a cancel and the later end are two events. */
    const changes = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.membershipChanges, productId), (events) =>
        rows(MembershipChangeRow, events, (e) => row(e))
      )

    /** Refunds, each its own id (an own checkout's refund leaves the sale row unchanged). */
    const refunds = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.refunds, productId), (events) =>
        rows(RefundFeedRow, events, (e) => row(e))
      )

    /** Buyers moved into a cohort, each move its own event. */
    const cohortSignups = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.cohortSignups, productId), (events) =>
        rows(CohortSignupRow, events, (e) => row(e))
      )

    /** Tags put on people on the email list, each its own event; `tag` (an id, or a name in any case) narrows it. */
    const contactTagged = (caller: StoreCaller, tag?: string) =>
      Effect.flatMap(
        read(caller, FEED_SELECTIONS.contactTagged, undefined, { tag: tag?.trim() || undefined }),
        (events) => rows(ContactTaggedRow, events, (e) => row(e))
      )

    /** New addresses from sign-ups (`lead.created`), each its own event. */
    const emailSignups = (caller: StoreCaller) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.emailSignups, undefined), (events) =>
        rows(EmailSignupRow, events, (e) => row(e))
      )

    /** Forms filled in, each response its own event; `quiz` (a form id) narrows it. */
    const formCompleted = (caller: StoreCaller, quiz?: string) =>
      Effect.flatMap(
        read(caller, FEED_SELECTIONS.formCompleted, undefined, { quizId: quiz?.trim() || undefined }),
        (events) => rows(FormCompletedRow, events, (e) => row(e))
      )

    /** Questions paid for (test purchases left out), each its own event; `question_id` names the question. */
    const paidQuestions = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.paidQuestions, productId), (events) =>
        rows(PaidQuestionFeedRow, events, (e) => row(e))
      )

    /** Buyers' reviews, each its own event; `review_id` names the review. */
    const reviews = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.reviews, productId), (events) =>
        rows(ReviewFeedRow, events, (e) => row(e))
      )

    /** Buyers' reviews they let the seller quote, each its own event. */
    const testimonials = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.testimonials, productId), (events) =>
        rows(TestimonialFeedRow, events, (e) => row(e))
      )

    /** Lessons learners finished, each its own event; `finished_course` marks the last open one. */
    const lessonsCompleted = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.lessonsCompleted, productId), (events) =>
        rows(LessonCompletedFeedRow, events, (e) => row(e))
      )

    /** Questions asked on lessons, each its own event; `question_id` names the question. */
    const lessonQuestions = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.lessonQuestions, productId), (events) =>
        rows(LessonQuestionFeedRow, events, (e) => row(e))
      )

    /** New active affiliates, each its own event. */
    const affiliates = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.affiliates, productId), (events) =>
        rows(AffiliateFeedRow, events, (e) => row(e))
      )

    /** Affiliate applications, each its own event. */
    const affiliateApplications = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.affiliateApplications, productId), (events) =>
        rows(AffiliateApplicationFeedRow, events, (e) => row(e))
      )

    /** Sales and renewals affiliates brought, with the commission; each row's id is its event's. */
    const affiliateSales = (caller: StoreCaller, productId?: string) =>
      Effect.flatMap(read(caller, FEED_SELECTIONS.affiliateSales, productId), (events) =>
        rows(AffiliateSaleFeedRow, events, (e) => ({ ...e.data, sale_id: e.data.id, id: e.id }))
      )

    return {
      sales,
      affiliates,
      affiliateApplications,
      affiliateSales,
      lessonsCompleted,
      lessonQuestions,
      paidQuestions,
      reviews,
      testimonials,
      customers,
      payments,
      changes,
      refunds,
      cohortSignups,
      contactTagged,
      emailSignups,
      formCompleted
    } as const
  })
}) {}
