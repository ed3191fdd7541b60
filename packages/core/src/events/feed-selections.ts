/**
 * Which rows of the event log each polling feed shows. The feeds (`feeds.ts`) read with these, and so do the
 * instant hooks (`webhooks/instant-hooks/events.ts`), so a pushed id is always one its feed lists.
 */

/** The events a feed reads, and for sales, which of them (paid ones; with `memberships`, paid membership sales). */
export interface FeedSelection {
  readonly types: ReadonlyArray<string>
  readonly paidSales?: "all" | "memberships" | undefined
  /** Leave out events of the built-in test processor (`data.test` true), as the sales feeds do. */
  readonly leaveOutTest?: boolean | undefined
  /** Leave out affiliate sales whose commission a refund took back, as New Affiliate Sale does. */
  readonly leaveOutReversed?: boolean | undefined
}

/** The selection of every feed route of the store API. */
export const FEED_SELECTIONS = {
  /** `GET /sales/recent`: new paid sales (free claims, refunds and test sales left out). */
  sales: { types: ["purchase.created"], paidSales: "all" },
  /** `GET /customers/recent`: new customers however they came. */
  customers: { types: ["customer.created"] },
  /** `GET /memberships/payments`: the first payment of a membership and every renewal. */
  membershipPayments: { types: ["purchase.created", "membership.renewed"], paidSales: "memberships" },
  /** `GET /memberships/changes`: a cancel and the later end, two events. */
  membershipChanges: { types: ["membership.cancelled", "purchase.membership_ended"] },
  /** `GET /refunds/recent`. */
  refunds: { types: ["purchase.refunded"] },
  /** `GET /cohort-signups/recent`. */
  cohortSignups: { types: ["cohort_signup.created"] },
  /** `GET /email-contacts/tagged` (Contact Tagged): each tag put on a person on the email list. */
  contactTagged: { types: ["contact.tagged"] },
  /** `GET /email-signups/recent` (New Email Signup): each new address from a sign-up. */
  emailSignups: { types: ["lead.created"] },
  /** `GET /quiz-responses/recent` (Form Completed): each form filled in. */
  formCompleted: { types: ["form.completed"] },
  /** `GET /paid-questions/recent` (New Paid Question): each question paid for, test purchases left out. */
  paidQuestions: { types: ["paid_question.created"], leaveOutTest: true },
  /** `GET /reviews/recent` (New Review): each buyer's review (imported testimonials are never events). */
  reviews: { types: ["review.created"] },
  /** `GET /testimonials/recent` (New Testimonial): each buyer's review they let the seller quote. */
  testimonials: { types: ["testimonial.created"] },
  /** `GET /lessons/completed` (Lesson Completed): each lesson a learner finished. */
  lessonsCompleted: { types: ["lesson.completed"] },
  /** `GET /lesson-questions/recent` (New Lesson Question): each question asked on a lesson. */
  lessonQuestions: { types: ["lesson_question.created"] },
  /** `GET /affiliates/recent` (New Affiliate): each affiliate who became active. */
  affiliates: { types: ["affiliate.created"] },
  /** `GET /affiliates/applications` (New Affiliate Application): each application. */
  affiliateApplications: { types: ["affiliate_application.created"] },
  /**
   * `GET /affiliates/sales` (New Affiliate Sale): each sale or renewal an affiliate brought, refunded ones out. Test
   * sales stay (marked `test`): a seller trying their program at the test checkout sees it work.
   */
  affiliateSales: { types: ["affiliate_sale.created"], leaveOutReversed: true }
} as const satisfies Record<string, FeedSelection>
