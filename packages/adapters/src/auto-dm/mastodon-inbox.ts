/**
 * The Mastodon inbox of auto-DM, through masto.js: reads an account's mentions (`GET /api/v1/notifications` of type
 * `mention`, which is how Mastodon tells an account of replies too), and answers with a status replying to the
 * person's: `direct` visibility as the direct message, the person's own visibility (at most unlisted) as the reply.
 * Every status carries an `Idempotency-Key` derived from the send, and a retry first looks through the account's
 * latest statuses for its answer, so a message never goes out twice.
 */
import {
  type Engagement,
  type EngagementInbox,
  type InboxRead,
  MessageFailure,
  type MessagingAccount,
  type OutgoingMessage,
  type SentMessage
} from "@svc/core/auto-dm"
import { Duration, Effect, Option, Schema } from "effect"
import { convert } from "html-to-text"
import type { mastodon } from "masto"
import type { Dispatcher } from "undici"
import { makeMastodonCalls } from "../publisher/mastodon-client.js"

/** Settings of {@link makeMastodonInbox}; every one has a default. */
export interface MastodonInboxOptions {
  /** Longest wait for one call (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** Pages of 40 notifications one read takes at most (default 5). */
  readonly pagesMax?: number
  /** Accepts `http://` instance addresses (a local instance, tests); off by default. */
  readonly allowPlainHttp?: boolean
  /** The undici dispatcher every call goes through (the server gives the checked fetch's). */
  readonly dispatcher?: Dispatcher
}

// masto answers in camelCase; only the fields read here are decoded.
const Account = Schema.Struct({
  id: Schema.String,
  acct: Schema.String,
  displayName: Schema.String
})
const Status = Schema.Struct({
  id: Schema.String,
  content: Schema.String,
  visibility: Schema.String,
  inReplyToId: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  account: Account
})
const Notification = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  createdAt: Schema.String,
  status: Schema.optional(Schema.NullOr(Status))
})
const Notifications = Schema.Array(Notification)
const Statuses = Schema.Array(Status)
const Created = Schema.Struct({ id: Schema.String })
const Me = Schema.Struct({ id: Schema.String })

/** Statuses of the account a retry looks through for its answer. */
const STATUSES_LOOKED_AT = 40

/** Mastodon ids are integers as text (snowflakes): the larger of two. */
const larger = (a: string | null, b: string): string =>
  a === null || b.length > a.length || (b.length === a.length && b > a) ? b : a

/** The idempotency key of a send's status. */
export const answerKey = (sendId: string): string => `svc-auto-dm:${sendId}`

/** An inbox for platform `mastodon`. */
export const makeMastodonInbox = (options: MastodonInboxOptions = {}): EngagementInbox => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const pagesMax = Math.max(1, options.pagesMax ?? 5)

  const mastodonCalls = makeMastodonCalls({
    failure: (fields) => new MessageFailure(fields),
    requestTimeout,
    allowPlainHttp: options.allowPlainHttp === true,
    dispatcher: options.dispatcher
  })
  const { call } = mastodonCalls

  const opened = (account: MessagingAccount) =>
    Effect.gen(function* () {
      const { client, accountId } = yield* mastodonCalls.opened(account.serviceUrl, account.credentials)
      // Accounts connected before the publisher kept their id are asked for it.
      const me =
        accountId ??
        (yield* call("Checking the access token", Me, (signal) =>
          client.v1.accounts.verifyCredentials(undefined, { requestInit: { signal } })
        )).id
      return { client, me }
    })

  const engagementOf = (me: string, n: typeof Notification.Type): Option.Option<Engagement> => {
    const status = n.status
    if (n.type !== "mention" || status === undefined || status === null || status.account.id === me) {
      return Option.none()
    }
    return Option.some({
      remoteId: status.id,
      cid: null,
      kind: status.inReplyToId === null ? "mention" : "reply",
      authorId: status.account.id,
      authorHandle: status.account.acct,
      authorName: status.account.displayName.trim() || null,
      text: convert(status.content, { wordwrap: false, selectors: [{ selector: "a", options: { ignoreHref: true } }] }),
      parentRemoteId: status.inReplyToId,
      rootRemoteId: null,
      root: null,
      direct: status.visibility === "direct",
      at: new Date(n.createdAt)
    })
  }

  /**
   * Mentions after the cursor (the newest notification id read before), oldest first, a page of 40 at a time with
   * `min_id`; on a first read, the latest page, kept from `since` on.
   */
  const readNew = (account: MessagingAccount, cursor: string | null, since: Date) =>
    Effect.gen(function* () {
      const { client, me } = yield* opened(account)
      const items: Array<Engagement> = []
      let newest = cursor
      for (let read = 0; read < pagesMax; read++) {
        const page = yield* call("Reading notifications", Notifications, (signal) =>
          client.v1.notifications.list(
            { types: ["mention"], limit: 40, ...(newest === null ? {} : { minId: newest }) },
            { requestInit: { signal } }
          )
        )
        for (const n of page) {
          newest = larger(newest, n.id)
          if (cursor === null && Date.parse(n.createdAt) < since.getTime()) continue
          Option.map(engagementOf(me, n), (item) => items.push(item))
        }
        // A first read takes the latest page only; later reads page on until they are level with the instance.
        if (page.length < 40 || cursor === null) break
      }
      items.sort((a, b) => a.at.getTime() - b.at.getTime())
      return { items, cursor: newest } satisfies InboxRead
    })

  /** The text as sent: a status reaches the person only when it mentions them, so it starts with the mention. */
  const statusText = (message: OutgoingMessage) => {
    const mention = `@${message.trigger.authorHandle}`
    return message.text.includes(mention) ? message.text : `${mention} ${message.text}`
  }

  const visibilityOf = (message: OutgoingMessage): mastodon.v1.StatusVisibility =>
    message.channel === "dm" || message.trigger.direct ? "direct" : "unlisted"

  const send = (account: MessagingAccount, message: OutgoingMessage) =>
    Effect.gen(function* () {
      const { client } = yield* opened(account)
      const created = yield* call("Answering", Created, (signal) =>
        client.v1.statuses.create(
          {
            status: statusText(message),
            inReplyToId: message.trigger.remoteId,
            visibility: visibilityOf(message)
          },
          { requestInit: { signal, headers: { "Idempotency-Key": answerKey(message.sendId) } } }
        )
      )
      return { channel: message.channel, remoteId: created.id } satisfies SentMessage
    })

  /**
   * An earlier try's answer: among the account's latest statuses, one replying to the person's status with the
   * send's visibility, made since the send was. The instance's own idempotency key covers a retry within the hour; this
   * covers a takeover later than that.
   */
  const findSent = (account: MessagingAccount, message: OutgoingMessage) =>
    Effect.gen(function* () {
      const { client, me } = yield* opened(account)
      const statuses = yield* call("Reading the account's statuses", Statuses, (signal) =>
        client.v1.accounts.$select(me).statuses.list({ limit: STATUSES_LOOKED_AT }, { requestInit: { signal } })
      )
      const answer = statuses.find(
        (s) =>
          s.inReplyToId === message.trigger.remoteId &&
          s.visibility === visibilityOf(message) &&
          Date.parse(s.createdAt) >= message.createdAt.getTime() - 5 * 60_000
      )
      return Option.map(Option.fromNullable(answer), (s): SentMessage => ({ channel: message.channel, remoteId: s.id }))
    })

  return {
    platform: "mastodon",
    readNew: (account, cursor, since) =>
      readNew(account, cursor, since).pipe(Effect.withSpan("mastodon.inbox.readNew")),
    send: (account, message) =>
      send(account, message).pipe(Effect.withSpan("mastodon.inbox.send", { attributes: { sendId: message.sendId } })),
    findSent: (account, message) =>
      findSent(account, message).pipe(
        Effect.withSpan("mastodon.inbox.findSent", { attributes: { sendId: message.sendId } })
      )
  }
}
