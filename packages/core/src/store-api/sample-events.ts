import { NO_ATTRIBUTION, STORE_CURRENCY } from "../store/sales/sale.js"
import { saleJson } from "../store/sales/sale-json.js"
import { Layer } from "effect"
import type { WebhookEventType } from "../webhooks/event-types.js"
import { WebhookSamples } from "../webhooks/ports.js"

/**
 * Sample `data` for each event type, shaped like the real events (store events carry the fields of
 * their feed row), for `POST /webhooks/<id>/test`. Ids are obviously fake so a receiver that stores
 * them by mistake can tell.
 */
export const sampleEventData = (type: WebhookEventType, now: Date): Readonly<Record<string, unknown>> => {
  const at = now.toISOString()
  const later = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString()
  const product = { product_id: "prod_test_sample", product_title: "Writing coach" }
  const buyer = { buyer_email: "buyer@example.com", buyer_name: "Sam Sample" }
  // Through the store's own row builder, so a sample sale has exactly the fields a real one has.
  const sale = saleJson({
    id: "purchase:test_sample",
    workspaceId: "ws_test_sample",
    productId: product.product_id,
    productTitle: product.product_title,
    buyerEmail: buyer.buyer_email,
    buyerName: buyer.buyer_name,
    amountCents: 2900,
    currency: STORE_CURRENCY,
    billing: "monthly",
    source: "own_checkout",
    orderId: "order_test_sample",
    subscriptionId: null,
    status: "paid",
    discountCode: null,
    test: false,
    attribution: NO_ATTRIBUTION,
    createdAt: now
  })
  const person = { email: "buyer@example.com", name: "Sam Sample" }
  const call = {
    call_type_id: "ct_test_sample",
    call_type_name: "Intro call",
    ...person,
    starts_at: later(3),
    ends_at: new Date(now.getTime() + 3 * 86_400_000 + 1_800_000).toISOString(),
    created_at: at
  }
  const post = {
    post_id: "post_test_sample",
    text: "A sample post",
    scheduled_for: at,
    posted_at: at,
    url: "https://social.example.com/p/sample",
    links: ["https://social.example.com/p/sample"],
    error: null,
    platforms: [{ platform: "linkedin", status: "posted", url: "https://social.example.com/p/sample", error: null }]
  }
  switch (type) {
    case "purchase.created":
      return { ...sale, how: "own_checkout" }
    case "purchase.refunded":
      return { ...sale, status: "refunded", sale_id: sale.id, refunded_at: at }
    case "purchase.membership_ended":
    case "membership.cancelled": {
      const ended = type === "purchase.membership_ended"
      return {
        ...product,
        ...buyer,
        subscription_id: "sub_test_sample",
        change: ended ? "ended" : "cancelled",
        access_ends_at: ended ? at : later(20),
        created_at: at
      }
    }
    case "membership.renewed":
      return {
        ...product,
        ...buyer,
        amount: 29,
        amount_cents: 2900,
        currency: "usd",
        billing: "monthly",
        order_id: "order_test_sample_2",
        subscription_id: "sub_test_sample",
        paid_until: later(30),
        payment: "renewal",
        created_at: at
      }
    case "customer.created":
      return { ...product, ...person, how: "own_checkout", created_at: at }
    case "affiliate_sale.created":
      return {
        ...sale,
        commission_id: "com_test_sample",
        affiliate_id: "aff_test_sample",
        affiliate_email: "partner@example.com",
        payment: "first",
        commission_cents: 870,
        commission: 8.7
      }
    case "lead.created":
      return { ...person, marketing_consent: true, source: "signup_form", created_at: at }
    case "contact.tagged":
      return { ...person, tag_id: "tag_test_sample", tag_name: "Webinar", created_at: at }
    case "form.completed":
      return {
        response_id: "resp_test_sample",
        quiz_id: "quiz_test_sample",
        quiz_title: "Which plan fits you?",
        ...person,
        answers: [{ question: "What do you want to learn?", answer: "Writing" }],
        created_at: at
      }
    case "booking.created":
      return call
    case "booking.cancelled":
      return { ...call, cancelled_at: at }
    case "booking.rescheduled":
      return { ...call, previous_starts_at: later(1) }
    case "coaching_application.created":
      return {
        application_id: "app_test_sample",
        ...product,
        ...person,
        answer_due_at: later(2),
        answer_url: "https://example.com/applications/sample",
        created_at: at
      }
    case "lesson.completed":
      return {
        ...product,
        ...person,
        lesson_id: "ks_test_sample",
        lesson_title: "Lesson 1",
        finished_course: false,
        created_at: at
      }
    case "lesson_question.created":
      return {
        ...product,
        ...person,
        question_id: "lq_test_sample",
        lesson_id: "ks_test_sample",
        lesson_title: "Lesson 1",
        text: "Can you explain step 2?",
        created_at: at
      }
    case "cohort_signup.created":
      return {
        ...product,
        cohort_id: "coh_test_sample",
        cohort_name: "Spring cohort",
        starts_on: later(14).slice(0, 10),
        ...person,
        previous_cohort_id: null,
        over_cap: false,
        created_at: at
      }
    case "review.created":
      return {
        review_id: "rev_test_sample",
        ...product,
        reviewer_email: "buyer@example.com",
        reviewer_name: "Sam Sample",
        rating: 5,
        text: "Clear and useful.",
        quotable: true,
        created_at: at
      }
    case "testimonial.created":
      return {
        testimonial_id: "rev_test_sample",
        ...product,
        ...person,
        rating: 5,
        text: "Clear and useful.",
        created_at: at
      }
    case "paid_question.created":
      return {
        question_id: "pq_test_sample",
        ...product,
        ...buyer,
        sale_id: "purchase:test_sample",
        text: "How do I price my course?",
        amount: 25,
        amount_cents: 2500,
        currency: "usd",
        test: true,
        answer_due_at: later(3),
        answer_url: "https://svc.example.com/q/pq_test_sample?k=sample",
        created_at: at
      }
    case "post.published":
      return { ...post, status: "posted" }
    case "post.failed":
      return {
        ...post,
        status: "failed",
        posted_at: null,
        url: null,
        links: [],
        error: "the platform refused the post",
        platforms: [{ platform: "linkedin", status: "failed", url: null, error: "the platform refused the post" }]
      }
  }
}

/** The store's sample events for the webhooks' test sends (`Webhooks.test`). */
export const WebhookSamplesLive = Layer.succeed(WebhookSamples, { dataOf: sampleEventData })
