/**
 * The instant hook events: each one pushes what one polling feed of the store API lists, so the automation
 * tool can fetch every pushed id from that feed.
 */

import { FEED_SELECTIONS, type FeedSelection } from "../../events/feed-selections.js"

/** Which rows of the event log a feed shows (its `FEED_SELECTIONS` entry), and which of their ids it lists. */
export interface FeedSelector extends FeedSelection {
  /** The id the feed lists for a row: the event's own, or the sale row's (`GET /sales/recent` lists sale rows). */
  readonly listedId: "event" | "sale"
}

/** One instant hook event: the feed route it follows and what that route reads. */
export interface InstantHookEvent {
  readonly feed: string
  readonly selector: FeedSelector
}

/**
 * The instant hook events, by name, each reading as its feed reads (`FEED_SELECTIONS`); Membership Cancelled
 * follows the cancels of `GET /memberships/changes`, not the later ends of access.
 */
export const INSTANT_HOOK_EVENTS = {
  new_sale: {
    feed: "/sales/recent",
    selector: { ...FEED_SELECTIONS.sales, listedId: "sale" }
  },
  new_customer: {
    feed: "/customers/recent",
    selector: { ...FEED_SELECTIONS.customers, listedId: "event" }
  },
  new_membership_payment: {
    feed: "/memberships/payments",
    selector: { ...FEED_SELECTIONS.membershipPayments, listedId: "event" }
  },
  membership_cancelled: {
    feed: "/memberships/changes",
    // The cancels alone, of the two event types its feed reads.
    selector: { types: ["membership.cancelled"], listedId: "event" }
  },
  new_refund: {
    feed: "/refunds/recent",
    selector: { ...FEED_SELECTIONS.refunds, listedId: "event" }
  },
  new_email_signup: {
    feed: "/email-signups/recent",
    selector: { ...FEED_SELECTIONS.emailSignups, listedId: "event" }
  },
  form_completed: {
    feed: "/quiz-responses/recent",
    selector: { ...FEED_SELECTIONS.formCompleted, listedId: "event" }
  },
  new_paid_question: {
    feed: "/paid-questions/recent",
    selector: { ...FEED_SELECTIONS.paidQuestions, listedId: "event" }
  },
  new_affiliate_sale: {
    feed: "/affiliates/sales",
    selector: { ...FEED_SELECTIONS.affiliateSales, listedId: "event" }
  }
} as const satisfies Record<string, InstantHookEvent>

/** An instant hook event name (`new_sale`, …). */
export type InstantHookEventName = keyof typeof INSTANT_HOOK_EVENTS

/** Every instant hook event name, in the order the spec lists the triggers. */
export const INSTANT_HOOK_EVENT_NAMES = Object.keys(INSTANT_HOOK_EVENTS) as ReadonlyArray<InstantHookEventName>

/** Whether `name` is an instant hook event. */
export const isInstantHookEvent = (name: string): name is InstantHookEventName =>
  Object.hasOwn(INSTANT_HOOK_EVENTS, name)
