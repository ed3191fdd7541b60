import type { ContactTaggedRow, EmailSignupRow } from "../email-list/email-contact.js"
import type {
  AffiliateApplicationFeedRow,
  AffiliateFeedRow,
  AffiliateSaleFeedRow
} from "../affiliates/affiliate-api.js"
import type { LessonCompletedFeedRow, LessonQuestionFeedRow } from "../courses/lesson-api.js"
import type { FormCompletedRow } from "../forms/api.js"
import type { PaidQuestionFeedRow } from "../questions/question-api.js"
import type { ReviewFeedRow, TestimonialFeedRow } from "../reviews/review-api.js"
import type {
  CohortSignupRow,
  CustomerFeedRow,
  MembershipChangeRow,
  MembershipPaymentRow,
  RefundFeedRow,
  SaleFeedRow
} from "./feed-rows.js"

// The store API's feed answers: `ok` and the feed's rows under the feed's own key.

type Rows<S extends { readonly Type: unknown }> = ReadonlyArray<S["Type"]>

/** `GET /sales/recent`. */
export const salesFeedJson = (sales: Rows<typeof SaleFeedRow>) => ({ ok: true as const, sales })

/** `GET /customers/recent`. */
export const customersFeedJson = (customers: Rows<typeof CustomerFeedRow>) => ({ ok: true as const, customers })

/** `GET /memberships/payments`. */
export const paymentsFeedJson = (payments: Rows<typeof MembershipPaymentRow>) => ({ ok: true as const, payments })

/** `GET /memberships/changes`. */
export const changesFeedJson = (changes: Rows<typeof MembershipChangeRow>) => ({ ok: true as const, changes })

/** `GET /refunds/recent`. */
export const refundsFeedJson = (refunds: Rows<typeof RefundFeedRow>) => ({ ok: true as const, refunds })

/** `GET /cohort-signups/recent`. */
export const cohortSignupsFeedJson = (signups: Rows<typeof CohortSignupRow>) => ({ ok: true as const, signups })

/** `GET /email-contacts/tagged`. */
export const contactTaggedFeedJson = (contacts: Rows<typeof ContactTaggedRow>) => ({ ok: true as const, contacts })

/** `GET /email-signups/recent`. */
export const emailSignupsFeedJson = (signups: Rows<typeof EmailSignupRow>) => ({ ok: true as const, signups })

/** `GET /quiz-responses/recent`. */
export const formCompletedFeedJson = (responses: Rows<typeof FormCompletedRow>) => ({
  ok: true as const,
  responses
})

/** `GET /paid-questions/recent`. */
export const paidQuestionsFeedJson = (questions: Rows<typeof PaidQuestionFeedRow>) => ({
  ok: true as const,
  questions
})

/** `GET /reviews/recent`. */
export const reviewsFeedJson = (reviews: Rows<typeof ReviewFeedRow>) => ({ ok: true as const, reviews })

/** `GET /testimonials/recent`. */
export const testimonialsFeedJson = (testimonials: Rows<typeof TestimonialFeedRow>) => ({
  ok: true as const,
  testimonials
})

/** `GET /lessons/completed`. */
export const lessonsCompletedFeedJson = (completions: Rows<typeof LessonCompletedFeedRow>) => ({
  ok: true as const,
  completions
})

/** `GET /lesson-questions/recent`. */
export const lessonQuestionsFeedJson = (questions: Rows<typeof LessonQuestionFeedRow>) => ({
  ok: true as const,
  questions
})

/** `GET /affiliates/recent`. */
export const affiliatesFeedJson = (affiliates: Rows<typeof AffiliateFeedRow>) => ({ ok: true as const, affiliates })

/** `GET /affiliates/applications`. */
export const affiliateApplicationsFeedJson = (applications: Rows<typeof AffiliateApplicationFeedRow>) => ({
  ok: true as const,
  applications
})

/** `GET /affiliates/sales`. */
export const affiliateSalesFeedJson = (sales: Rows<typeof AffiliateSaleFeedRow>) => ({ ok: true as const, sales })
