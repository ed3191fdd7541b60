import { Schema } from "effect"
import { SaleRow } from "../store/api-rows.js"
import { AccessHowLiteral } from "../store/overview/feed-rows.js"
import { Billing } from "../store/catalog/product.js"
import { affiliateSaleFields } from "../store/affiliates/affiliate-api.js"
import { lessonCompletedFields, lessonQuestionCreatedFields } from "../store/courses/lesson-api.js"
import { paidQuestionFields } from "../store/questions/question-api.js"
import { reviewFields, testimonialFields } from "../store/reviews/review-api.js"
import type { WebhookEventType } from "../webhooks/event-types.js"

// The `data` of each webhook event type: the contract a receiver is typed against. Events the store emits today
// carry the fields of their feed row (the adapters test decodes every emitted event against these); the others are
// described by their samples (`sampleEventData`) until something emits them. Every struct is exact: a field added
// to an event without its schema fails those tests.

const iso = Schema.String.annotations({ description: "ISO 8601 timestamp, UTC." })
const nullableString = Schema.NullOr(Schema.String)
const personName = nullableString.annotations({ description: "The person's name; null when they gave none." })

const product = {
  product_id: Schema.String.annotations({ description: "The product's id." }),
  product_title: Schema.String
}
const buyer = { buyer_email: Schema.String, buyer_name: personName }
const person = { email: Schema.String, name: personName }
const createdAt = { created_at: iso.annotations({ description: "When it happened (ISO 8601, UTC)." }) }
const money = {
  amount: Schema.Number.annotations({ description: "Major currency units." }),
  amount_cents: Schema.Int,
  currency: Schema.String.annotations({ description: "ISO 4217 code, lower case." })
}
const subscriptionId = nullableString.annotations({ description: "The checkout's subscription id, when it gave one." })

const data = <Fields extends Schema.Struct.Fields>(identifier: string, description: string, fields: Fields) =>
  Schema.Struct(fields).annotations({ identifier, description })

const PurchaseCreatedData = data("PurchaseCreatedData", "A sale: the sale row, and how the buyer came to have it.", {
  ...SaleRow.fields,
  how: AccessHowLiteral
})

const PurchaseRefundedData = data(
  "PurchaseRefundedData",
  "A refund: the refunded sale row's fields, sale_id and refunded_at.",
  {
    ...SaleRow.fields,
    sale_id: Schema.String.annotations({ description: "The refunded sale row's id (purchase:…)." }),
    refunded_at: iso
  }
)

const membershipChange = <Change extends "cancelled" | "ended">(change: Change) => ({
  ...product,
  ...buyer,
  subscription_id: subscriptionId,
  change: Schema.Literal(change),
  ...createdAt
})

const PurchaseMembershipEndedData = data("PurchaseMembershipEndedData", "A membership ended: access is off now.", {
  ...membershipChange("ended"),
  access_ends_at: iso.annotations({ description: "When access ended: the moment of the event." })
})

const MembershipCancelledData = data(
  "MembershipCancelledData",
  "A membership cancelled: access runs on until access_ends_at.",
  {
    ...membershipChange("cancelled"),
    access_ends_at: Schema.NullOr(iso).annotations({
      description: "When access runs out; null when the checkout gave no end and nothing was paid ahead."
    })
  }
)

const MembershipRenewedData = data("MembershipRenewedData", "A membership renewal payment.", {
  ...product,
  ...buyer,
  ...money,
  billing: Billing,
  order_id: nullableString.annotations({ description: "The checkout's order id of this payment." }),
  subscription_id: subscriptionId,
  paid_until: Schema.NullOr(iso).annotations({ description: "Paid up to this instant; null when not given." }),
  payment: Schema.Literal("renewal"),
  ...createdAt
})

const CustomerCreatedData = data("CustomerCreatedData", "A person's first access to a product.", {
  ...product,
  ...person,
  how: AccessHowLiteral,
  ...createdAt
})

const AffiliateSaleCreatedData = data(
  "AffiliateSaleCreatedData",
  "A sale or renewal an affiliate referred, with their commission.",
  affiliateSaleFields
)

const LeadCreatedData = data("LeadCreatedData", "A new email contact.", {
  ...person,
  marketing_consent: Schema.Boolean.annotations({ description: "Whether they agreed to marketing email." }),
  source: Schema.String.annotations({ description: "Where they signed up, e.g. signup_form." }),
  ...createdAt
})

const ContactTaggedData = data("ContactTaggedData", "A tag put on a contact.", {
  ...person,
  tag_id: Schema.String,
  tag_name: Schema.String,
  ...createdAt
})

const FormCompletedData = data("FormCompletedData", "A form or quiz filled in.", {
  response_id: Schema.String,
  quiz_id: Schema.String,
  quiz_title: Schema.String,
  ...person,
  answers: Schema.Array(Schema.Struct({ question: Schema.String, answer: Schema.String })),
  ...createdAt
})

const booking = {
  call_type_id: Schema.String,
  call_type_name: Schema.String,
  ...person,
  starts_at: iso,
  ends_at: iso,
  ...createdAt
}

const BookingCreatedData = data("BookingCreatedData", "A call booked.", booking)

const BookingCancelledData = data("BookingCancelledData", "A booked call cancelled.", {
  ...booking,
  cancelled_at: iso
})

const BookingRescheduledData = data("BookingRescheduledData", "A booked call moved to starts_at.", {
  ...booking,
  previous_starts_at: iso.annotations({ description: "When the call was to start before the move." })
})

const CoachingApplicationCreatedData = data("CoachingApplicationCreatedData", "An application for coaching.", {
  application_id: Schema.String,
  ...product,
  ...person,
  answer_due_at: iso.annotations({ description: "By when the seller should answer." }),
  answer_url: Schema.String.annotations({ description: "Where the seller answers it." }),
  ...createdAt
})

const LessonCompletedData = data("LessonCompletedData", "A lesson of a course finished.", lessonCompletedFields)

const LessonQuestionCreatedData = data(
  "LessonQuestionCreatedData",
  "A question asked on a lesson.",
  lessonQuestionCreatedFields
)

const CohortSignupCreatedData = data("CohortSignupCreatedData", "A buyer moved into a cohort.", {
  ...product,
  cohort_id: Schema.String,
  cohort_name: Schema.String,
  starts_on: nullableString.annotations({ description: "The cohort's start day, YYYY-MM-DD." }),
  ...person,
  previous_cohort_id: nullableString.annotations({ description: "The cohort they left; null on a first signup." }),
  over_cap: Schema.Boolean.annotations({ description: "Added to a full cohort with over_cap: true." }),
  ...createdAt
})

const ReviewCreatedData = data("ReviewCreatedData", "A buyer reviewed a product.", reviewFields)

const TestimonialCreatedData = data(
  "TestimonialCreatedData",
  "A buyer's review they let the seller quote.",
  testimonialFields
)

const PaidQuestionCreatedData = data("PaidQuestionCreatedData", "A buyer paid for a question and asked it.", {
  question_id: Schema.String.annotations({ description: "The question's id (pq_…)." }),
  ...paidQuestionFields,
  ...createdAt
})

const PostPlatform = Schema.Struct({
  platform: Schema.String.annotations({ description: "e.g. linkedin." }),
  status: Schema.Literal("posted", "failed"),
  url: nullableString,
  error: nullableString
})

const post = {
  post_id: Schema.String,
  text: Schema.String,
  scheduled_for: Schema.NullOr(iso),
  links: Schema.Array(Schema.String),
  platforms: Schema.Array(PostPlatform)
}

const PostPublishedData = data("PostPublishedData", "A scheduled post went out on at least one platform.", {
  ...post,
  status: Schema.Literal("posted", "partial").annotations({ description: "partial: some platforms failed." }),
  posted_at: iso,
  url: Schema.String.annotations({ description: "The first live link." }),
  error: Schema.NullOr(Schema.String).annotations({ description: "Why the failed platforms failed; null if none." })
})

const PostFailedData = data("PostFailedData", "A scheduled post could not go out.", {
  ...post,
  status: Schema.Literal("failed"),
  posted_at: Schema.Null,
  url: Schema.Null,
  error: Schema.String.annotations({ description: "Why it failed." })
})

/** The schema of each event type's `data`. */
export const WEBHOOK_EVENT_DATA = {
  "purchase.created": PurchaseCreatedData,
  "purchase.refunded": PurchaseRefundedData,
  "purchase.membership_ended": PurchaseMembershipEndedData,
  "membership.renewed": MembershipRenewedData,
  "membership.cancelled": MembershipCancelledData,
  "customer.created": CustomerCreatedData,
  "affiliate_sale.created": AffiliateSaleCreatedData,
  "lead.created": LeadCreatedData,
  "contact.tagged": ContactTaggedData,
  "form.completed": FormCompletedData,
  "booking.created": BookingCreatedData,
  "booking.cancelled": BookingCancelledData,
  "booking.rescheduled": BookingRescheduledData,
  "coaching_application.created": CoachingApplicationCreatedData,
  "lesson.completed": LessonCompletedData,
  "lesson_question.created": LessonQuestionCreatedData,
  "cohort_signup.created": CohortSignupCreatedData,
  "review.created": ReviewCreatedData,
  "testimonial.created": TestimonialCreatedData,
  "paid_question.created": PaidQuestionCreatedData,
  "post.published": PostPublishedData,
  "post.failed": PostFailedData
} as const satisfies { readonly [T in WebhookEventType]: Schema.Schema.AnyNoContext }

/** The `data` of one event type, decoded. */
export type WebhookEventData<T extends WebhookEventType> = (typeof WEBHOOK_EVENT_DATA)[T]["Type"]

/** The envelope of one event type: `{ id, type, created_at, store: { handle }, data }` with its `data` schema. */
export const webhookEventSchema = <T extends WebhookEventType>(type: T) =>
  Schema.Struct({
    id: Schema.String.annotations({ description: "The event's id (evt_…); the same on every attempt." }),
    type: Schema.Literal(type),
    created_at: iso.annotations({ description: "When the event happened (ISO 8601, UTC)." }),
    store: Schema.Struct({
      handle: nullableString.annotations({ description: "The store's handle; null for a workspace without one." })
    }),
    data: WEBHOOK_EVENT_DATA[type]
  })
