import { type CallOptions, type ClientOptions, makeRequester } from "../http/request.js"
import { type NoInput, endpointsOf } from "./endpoints.js"
import type { Answer, Input, Operation, PageShape } from "./types.js"

/**
 * What `createStoreClient` takes: the base URL, a store API key, and optionally `fetch`, a deadline and retrying.
 * `timeoutMs` defaults to 90,000 here (not 30,000): a store 429 asks for about a minute, and a wait only happens
 * when it fits in the deadline.
 */
export type StoreClientOptions = ClientOptions

const STORE_TIMEOUT_MS = 90_000

/** A sale to record; `order_id` may be left out (the client makes one). */
export type RecordSaleInput = Input<Operation<"/sales", "post">>

/** What recording a sale answers: `{ ok: true, status }`, or `{ ok: false, status: "rejected", reason }`. */
export type RecordSaleAnswer = Answer<Operation<"/sales", "post">>

/** `GET /products` without paging: every product as a short summary. */
export type ProductSummaries = Exclude<Answer<Operation<"/products", "get">>, PageShape>

// `crypto.randomUUID` exists only in secure contexts in browsers (https, localhost); `getRandomValues` everywhere.
const newOrderId = (): string => {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * A client of the store API (`/store-app/v1`), grouped as the contract groups it: `store.products.create(...)`,
 * `store.sales.list(...)`. Every method takes `(input, options?)`: the input holds the path parameters by name
 * (`{ id }`) and the query or the body, typed from the generated OpenAPI types. Failures throw a `StoreApiError`
 * subclass per status; a 429 is first waited out within the retry budget.
 *
 * The table below is the whole surface. A new endpoint is one row: `call(method, route)` for a plain call,
 * `list(route)` for a paged list; its types come from `npm run generate`.
 */
export const createStoreClient = (options: StoreClientOptions) => {
  const { call, list } = endpointsOf(makeRequester({ ...options, timeoutMs: options.timeoutMs ?? STORE_TIMEOUT_MS }))
  const record = call("post", "/sales")
  const productsAnswer = call("get", "/products")
  return {
    identity: {
      me: call("get", "/me"),
      customAis: call("get", "/custom-ais")
    },
    settings: {
      /** The store's name, support email, card processor and email-list options. */
      get: call("get", "/settings"),
      /** Changes the fields given (a Store Edit API key; an automation connection is refused). */
      update: call("patch", "/settings"),
      /** Connects the store's Stripe account: `{ secret_key, webhook_secret }`, checked with Stripe, kept sealed. */
      connectStripe: call("put", "/settings/stripe"),
      /** Forgets the store's Stripe keys and turns the card processor off. */
      disconnectStripe: call("delete", "/settings/stripe")
    },
    products: {
      /** Every product as a full row, page by page. */
      list: list("/products"),
      /** Every product as a short summary, in one answer. */
      summaries: (input?: NoInput, callOptions?: CallOptions) =>
        productsAnswer(input, callOptions) as Promise<ProductSummaries>,
      create: call("post", "/products"),
      get: call("get", "/products/{id}"),
      update: call("patch", "/products/{id}"),
      publish: call("post", "/products/{id}/publish"),
      unpublish: call("post", "/products/{id}/unpublish"),
      cohorts: call("get", "/products/{id}/cohorts")
    },
    sales: {
      /**
       * Records a sale, renewal, cancellation, end or refund. Without `order_id` the client makes one
       * (a random UUID) before the first attempt, so a retried call counts once. A refused sale
       * (`{ ok: false, status: "rejected", reason }`) is an answer, not an error.
       */
      record: (input: RecordSaleInput, callOptions?: CallOptions): Promise<RecordSaleAnswer> =>
        record({ ...input, order_id: input.order_id ?? newOrderId() }, callOptions),
      list: list("/sales"),
      recent: call("get", "/sales/recent"),
      get: call("get", "/sales/{id}")
    },
    customers: {
      add: call("post", "/customers"),
      list: list("/customers"),
      find: call("get", "/customers/find"),
      recent: call("get", "/customers/recent"),
      get: call("get", "/customers/{email}"),
      removeAccess: call("post", "/customers/remove-access"),
      accessEmail: call("post", "/customers/access-email"),
      cohort: call("post", "/customers/cohort")
    },
    discountCodes: {
      /** Makes a code for one product of the service's checkout; answers it with `code` and `checkout_url`. */
      create: call("post", "/discount-codes"),
      /** The store's codes (`product` narrows them), newest first, page by page. */
      list: list("/discount-codes"),
      /** One code, by its id or by the code itself in any case. */
      get: call("get", "/discount-codes/{id}"),
      /** Turns a code off for good (kept for the sales that used it); again answers it unchanged. */
      disable: call("post", "/discount-codes/{id}/disable")
    },
    paidQuestions: {
      /** Questions buyers paid to ask (`product`, `status`: open or answered), newest first, page by page. */
      list: list("/paid-questions"),
      /** The New Paid Question feed: the last 30 days' questions, newest first, test purchases left out. */
      recent: call("get", "/paid-questions/recent"),
      /** One question with its answer, if any. */
      get: call("get", "/paid-questions/{id}"),
      /** Answers a question, or replaces its answer; the buyer is emailed it and reads it at `answer_url`. */
      answer: call("post", "/paid-questions/{id}/answer")
    },
    reviews: {
      /** The store's reviews, buyers' and imported (`product`, `origin`), newest first, page by page. */
      list: list("/reviews"),
      /** The New Review feed: buyers' reviews of the last 30 days, newest first (imported ones left out). */
      recent: call("get", "/reviews/recent"),
      /** The New Testimonial feed: buyers' reviews they let the seller quote, last 30 days, newest first. */
      testimonials: call("get", "/testimonials/recent"),
      /** One review. */
      get: call("get", "/reviews/{id}"),
      /** Shows a review's words on its product's page (`shown: true`) or hides them; 409 for a buyer's never allowed. */
      update: call("post", "/reviews/{id}")
    },
    affiliates: {
      /** A product's affiliate program (`program: null` until one is set). */
      program: call("get", "/products/{id}/affiliate-program"),
      /** Sets a product's program; a field left out keeps its value. */
      setProgram: call("put", "/products/{id}/affiliate-program"),
      /** The store's affiliates (`product`, `status`), newest first, page by page. */
      list: list("/affiliates"),
      /** Adds an active affiliate to a product with a program. */
      add: call("post", "/affiliates"),
      /** One affiliate, with their link. */
      get: call("get", "/affiliates/{id}"),
      /** Accepts, declines or removes an affiliate (`decision`). */
      decide: call("post", "/affiliates/{id}"),
      /** What an affiliate earned in `[from, to)`. */
      payouts: call("get", "/affiliates/{id}/payouts"),
      /** The New Affiliate feed. */
      recent: call("get", "/affiliates/recent"),
      /** The New Affiliate Application feed. */
      applications: call("get", "/affiliates/applications"),
      /** The New Affiliate Sale feed: sales and renewals with the commission; refunded ones left out. */
      sales: call("get", "/affiliates/sales")
    },
    lessons: {
      /** The Lesson Completed feed: lessons learners finished in the last 30 days, newest first. */
      completed: call("get", "/lessons/completed"),
      /** The New Lesson Question feed: questions asked on lessons in the last 30 days, newest first. */
      recentQuestions: call("get", "/lesson-questions/recent"),
      /** Learners' questions on lessons (`product`, `lesson`, `status`: open or answered), newest first, page by page. */
      questions: list("/lesson-questions"),
      /** One lesson question with its answer, if any. */
      question: call("get", "/lesson-questions/{id}"),
      /** Answers a lesson question, or replaces its answer; the learner is emailed it. */
      answer: call("post", "/lesson-questions/{id}/answer"),
      /** Hides a question from the lesson's page (`hidden: true`) or shows it again. */
      update: call("post", "/lesson-questions/{id}")
    },
    creatorPage: {
      /** The store's public page settings, with its url. */
      get: call("get", "/creator-page"),
      /** Changes the public page: fields given replace the kept ones (null clears), all or none. */
      update: call("patch", "/creator-page")
    },
    feeds: {
      payments: call("get", "/memberships/payments"),
      changes: call("get", "/memberships/changes"),
      refunds: call("get", "/refunds/recent"),
      cohortSignups: call("get", "/cohort-signups/recent")
    },
    emailList: {
      /** The email list's contacts, newest first, page by page. */
      list: list("/email-contacts"),
      add: call("post", "/email-contacts"),
      get: call("get", "/email-contacts/{email}"),
      update: call("patch", "/email-contacts/{email}"),
      remove: call("delete", "/email-contacts/{email}"),
      removeTags: call("post", "/email-contacts/remove-tags"),
      /** The Contact Tagged feed. */
      tagged: call("get", "/email-contacts/tagged"),
      /** The New Email Signup feed: new addresses from the store's sign-up page. */
      signups: call("get", "/email-signups/recent"),
      /** The store's tags (shared with customers), newest first, page by page. */
      tags: list("/email-tags")
    },
    emailSequences: {
      /** The store's email sequences (start tags and products, steps, enrolment counts), newest first, page by page. */
      list: list("/email-sequences")
    },
    forms: {
      /** The store's forms (quizzes), newest first, page by page. */
      list: list("/quizzes"),
      /** A form's applications (`status`: pending by default, accepted, declined, all), newest first, page by page. */
      applications: list("/forms/{id}/applications"),
      accept: call("post", "/forms/{id}/applications/accept"),
      decline: call("post", "/forms/{id}/applications/decline"),
      /** The Form Completed feed; `quiz` narrows it to one form. */
      completed: call("get", "/quiz-responses/recent")
    },
    webhooks: {
      eventTypes: call("get", "/webhook-events"),
      list: call("get", "/webhooks"),
      create: call("post", "/webhooks"),
      get: call("get", "/webhooks/{id}"),
      update: call("patch", "/webhooks/{id}"),
      remove: call("delete", "/webhooks/{id}"),
      rollSecret: call("post", "/webhooks/{id}/roll-secret"),
      test: call("post", "/webhooks/{id}/test"),
      /** A webhook's delivery attempts, newest first, page by page. */
      deliveries: list("/webhooks/{id}/deliveries"),
      resend: call("post", "/deliveries/{id}/resend"),
      /** The store's event log (30 days), page by page. */
      events: list("/events"),
      event: call("get", "/events/{id}")
    },
    hooks: {
      subscribe: call("post", "/hooks"),
      unsubscribe: call("delete", "/hooks/{id}")
    }
  }
}

/** The client `createStoreClient` makes. */
export type StoreClient = ReturnType<typeof createStoreClient>
