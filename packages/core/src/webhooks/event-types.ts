/** Every webhook event type, grouped as the spec lists them (`GET /store-app/v1/webhook-events`). */
export const WEBHOOK_EVENT_GROUPS = [
  {
    group: "Sales",
    types: [
      "purchase.created",
      "purchase.refunded",
      "purchase.membership_ended",
      "membership.renewed",
      "membership.cancelled"
    ]
  },
  { group: "Customers", types: ["customer.created", "affiliate_sale.created"] },
  { group: "Email", types: ["lead.created", "contact.tagged", "form.completed"] },
  {
    group: "Calls",
    types: ["booking.created", "booking.cancelled", "booking.rescheduled", "coaching_application.created"]
  },
  {
    group: "Courses and reviews",
    types: [
      "lesson.completed",
      "lesson_question.created",
      "cohort_signup.created",
      "review.created",
      "testimonial.created"
    ]
  },
  { group: "Ask me", types: ["paid_question.created"] },
  { group: "Posts", types: ["post.published", "post.failed"] }
] as const

/** One webhook event type. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_GROUPS)[number]["types"][number]

/** All event types in catalog order. */
export const WEBHOOK_EVENT_TYPES: ReadonlyArray<WebhookEventType> = WEBHOOK_EVENT_GROUPS.flatMap((g) => g.types)

const known = new Set<string>(WEBHOOK_EVENT_TYPES)

/** Whether `type` is an event type a webhook may subscribe to. */
export const isWebhookEventType = (type: string): type is WebhookEventType => known.has(type)

/** The subscription that means "every type, including ones added later". */
export const ALL_EVENTS = "*"
