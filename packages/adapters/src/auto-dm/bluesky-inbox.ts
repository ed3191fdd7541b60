/**
 * The Bluesky inbox of auto-DM, through `@atproto/api`: reads an account's replies and mentions
 * (`app.bsky.notification.listNotifications`, which the account's PDS answers from its AppView), replies with a post
 * at a record key derived from the send (so no try writes a second reply), and sends direct messages through Bluesky's
 * chat service (`chat.bsky.convo.*`, proxied by the PDS with the `atproto-proxy` header), looking at the conversation
 * before a second try so a message never goes out twice.
 */
import type { AppBskyFeedPost } from "@atproto/api"
import {
  type Engagement,
  type EngagementInbox,
  type InboxRead,
  MessageFailure,
  type MessagingAccount,
  type OutgoingMessage,
  type SentMessage
} from "@svc/core/auto-dm"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { isRecordMissing, isRecordPresent, isXrpcError } from "../publisher/bluesky-failure.js"
import { recordKeyOf } from "../publisher/bluesky-record-keys.js"
import {
  type AtprotoApiWithTid,
  type BlueskySession,
  loadAtprotoApiWithTid,
  makeBlueskyCalls
} from "../publisher/bluesky-session.js"

/** Settings of {@link makeBlueskyInbox}; every one has a default. */
export interface BlueskyInboxOptions {
  /** Longest wait for one call (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput
  /** The chat service the PDS proxies `chat.bsky.*` to (default Bluesky's, `did:web:api.bsky.chat#bsky_chat`). */
  readonly chatService?: string
  /** Pages of 50 notifications one read looks through at most (default 5). */
  readonly pagesMax?: number
  /** The `fetch` every call goes through (default the global one; the server gives the checked fetch). */
  readonly fetch?: typeof fetch
}

/** The parts of a post record an engagement reads. */
const PostRecord = Schema.Struct({
  text: Schema.String,
  reply: Schema.optional(
    Schema.Struct({
      root: Schema.Struct({ uri: Schema.String, cid: Schema.String }),
      parent: Schema.Struct({ uri: Schema.String, cid: Schema.String })
    })
  )
})

const POST = "app.bsky.feed.post"
const CHAT_SERVICE = "did:web:api.bsky.chat#bsky_chat"
/** How far the chat service's clock may run behind ours when a retry looks for its message. */
const CLOCK_SKEW_MS = 5 * 60_000
/** Messages of the conversation a retry looks through for its own. */
const MESSAGES_LOOKED_AT = 50

/** A logged-in account; its API's TID makes the replies' record keys. */
type Session = BlueskySession<AtprotoApiWithTid>

/** A newer ISO time of the two (a null is older than any). */
const later = (a: string | null, b: string): string => (a === null || Date.parse(b) > Date.parse(a) ? b : a)

/** An inbox for platform `bluesky`. */
export const makeBlueskyInbox = (options: BlueskyInboxOptions = {}): EngagementInbox => {
  const requestTimeout = Duration.decode(options.requestTimeout ?? "30 seconds")
  const chatService = options.chatService ?? CHAT_SERVICE
  const pagesMax = Math.max(1, options.pagesMax ?? 5)
  const chatHeaders = { "atproto-proxy": chatService }
  const bluesky = makeBlueskyCalls({
    api: loadAtprotoApiWithTid("answering Bluesky replies"),
    failure: (fields) => new MessageFailure(fields),
    requestTimeout,
    fetch: options.fetch
  })
  const { attempt, call, failed: toFailure } = bluesky

  /**
   * A call to the chat service. Where the chat service (or the PDS in front of it) refuses the conversation, the
   * channel is `unavailable` to this person: the person takes no messages from this account, or the app password was
   * made without "Allow access to your direct messages" (the PDS answers 400 `InvalidToken` "Bad token method").
   */
  const chatCall = <A>(doing: string, run: (signal: AbortSignal) => PromiseLike<A>) =>
    attempt(run).pipe(
      Effect.catchAll((cause) => {
        if (isXrpcError(cause) && (cause.status === 400 || cause.status === 403)) {
          const why =
            cause.error === "InvalidToken"
              ? "the app password has no access to direct messages (make one with it allowed and reconnect)"
              : `the chat service refused: ${cause.message || cause.error}`
          return Effect.fail(new MessageFailure({ kind: "unavailable", message: `${doing}: ${why}` }))
        }
        return toFailure(doing)(cause)
      })
    )

  /** Runs `use` with this process's session of the account, logging in again once when a kept one stopped working. */
  const withSession = <A>(account: MessagingAccount, use: (session: Session) => Effect.Effect<A, MessageFailure>) =>
    bluesky.withSession(account.serviceUrl, account.credentials, use)

  /** A notification's post as an engagement, when it is a reply or mention by someone else. */
  const engagementOf = (
    session: Session,
    n: {
      readonly uri: string
      readonly cid: string
      readonly reason: string
      readonly indexedAt: string
      readonly record: unknown
      readonly author: { readonly did: string; readonly handle: string; readonly displayName?: string | undefined }
    }
  ): Option.Option<Engagement> => {
    if ((n.reason !== "reply" && n.reason !== "mention") || n.author.did === session.did) return Option.none()
    const record = Schema.decodeUnknownOption(PostRecord)(n.record)
    if (Option.isNone(record)) return Option.none()
    const { text, reply } = record.value
    return Option.some({
      remoteId: n.uri,
      cid: n.cid,
      kind: n.reason === "reply" ? "reply" : "mention",
      authorId: n.author.did,
      authorHandle: n.author.handle,
      authorName: n.author.displayName?.trim() ? n.author.displayName.trim() : null,
      text,
      parentRemoteId: reply?.parent.uri ?? null,
      rootRemoteId: reply?.root.uri ?? null,
      root: reply === undefined ? null : { uri: reply.root.uri, cid: reply.root.cid },
      direct: false,
      at: new Date(n.indexedAt)
    })
  }

  /**
   * Replies and mentions since the cursor: the newest `indexedAt` read before (or `since`, on a first read). Pages
   * are read newest first until one reaches back past it; what is read is answered oldest first. An item at exactly
   * the cursor's time is read again, which the sends' unique key makes harmless. The account's "seen" state in
   * Bluesky's app is left alone (no `updateSeen`).
   */
  const readNew = (account: MessagingAccount, cursor: string | null, since: Date) =>
    withSession(account, (session) =>
      Effect.gen(function* () {
        const from = cursor === null ? since.getTime() : Date.parse(cursor)
        const items: Array<Engagement> = []
        let newest = cursor
        let page: string | undefined
        for (let read = 0; read < pagesMax; read++) {
          const { data } = yield* call("Reading notifications", (signal) =>
            session.agent.app.bsky.notification.listNotifications(
              { limit: 50, reasons: ["reply", "mention"], ...(page === undefined ? {} : { cursor: page }) },
              { signal }
            )
          )
          let reachedBack = false
          for (const n of data.notifications) {
            if (Date.parse(n.indexedAt) < from) {
              reachedBack = true
              continue
            }
            newest = later(newest, n.indexedAt)
            Option.map(engagementOf(session, n), (item) => items.push(item))
          }
          page = data.cursor
          if (reachedBack || page === undefined || data.notifications.length === 0) break
        }
        items.sort((a, b) => a.at.getTime() - b.at.getTime())
        return { items, cursor: newest ?? new Date(from).toISOString() } satisfies InboxRead
      })
    )

  const replyKey = (session: Session, message: OutgoingMessage) =>
    recordKeyOf(session.api.TID, message.sendId, message.createdAt, 0)

  const replyUri = (session: Session, rkey: string) => `at://${session.did}/${POST}/${rkey}`

  /** The reply at the send's key, if an earlier try wrote it. */
  const findReply = (session: Session, message: OutgoingMessage) =>
    attempt((signal) =>
      session.agent.com.atproto.repo.getRecord(
        { repo: session.did, collection: POST, rkey: replyKey(session, message) },
        { signal }
      )
    ).pipe(
      Effect.as(
        Option.some<SentMessage>({ channel: "reply", remoteId: replyUri(session, replyKey(session, message)) })
      ),
      Effect.catchIf(isRecordMissing, () => Effect.succeed(Option.none<SentMessage>())),
      Effect.catchAll(toFailure("Reading a reply"))
    )

  /**
   * Replies at the send's record key with `putRecord` and `swapRecord: null`, which the PDS refuses (`InvalidSwap`)
   * when the key already holds a record: a second try, or two racing, leave one reply.
   */
  const sendReply = (session: Session, message: OutgoingMessage) =>
    Effect.gen(function* () {
      const { trigger } = message
      if (trigger.cid === null) return yield* new MessageFailure({ kind: "rejected", message: "the post has no CID" })
      const rich = new session.api.RichText({ text: message.text })
      rich.detectFacetsWithoutResolution()
      const parent = { uri: trigger.remoteId, cid: trigger.cid }
      const record: AppBskyFeedPost.Record = {
        $type: POST,
        text: rich.text,
        ...(rich.facets !== undefined && rich.facets.length > 0 ? { facets: rich.facets } : {}),
        reply: { root: trigger.root ?? parent, parent },
        createdAt: new Date(yield* Clock.currentTimeMillis).toISOString()
      }
      const rkey = replyKey(session, message)
      yield* attempt((signal) =>
        session.agent.com.atproto.repo.putRecord(
          { repo: session.did, collection: POST, rkey, record, swapRecord: null },
          { signal }
        )
      ).pipe(
        Effect.asVoid,
        Effect.catchIf(isRecordPresent, () => Effect.void),
        Effect.catchAll(toFailure("Replying"))
      )
      return { channel: "reply", remoteId: replyUri(session, rkey) } satisfies SentMessage
    })

  /**
   * The conversation with the person, when the chat service allows one (else `unavailable`). Nothing is sent yet, so
   * every failure here is `beforeSending` (a PDS that cannot reach the chat service answers 500: a rule that may reply
   * does so instead of waiting on it).
   */
  const conversationWith = (session: Session, did: string) =>
    Effect.gen(function* () {
      const { data } = yield* chatCall("Opening the conversation", (signal) =>
        session.agent.chat.bsky.convo.getConvoAvailability({ members: [did] }, { signal, headers: chatHeaders })
      )
      if (!data.canChat) {
        return yield* new MessageFailure({
          kind: "unavailable",
          message: "the person does not accept direct messages from this account"
        })
      }
      if (data.convo !== undefined) return data.convo.id
      const made = yield* chatCall("Opening the conversation", (signal) =>
        session.agent.chat.bsky.convo.getConvoForMembers({ members: [did] }, { signal, headers: chatHeaders })
      )
      return made.data.convo.id
    }).pipe(
      Effect.mapError(
        (failure) =>
          new MessageFailure({
            kind: failure.kind,
            message: failure.message,
            ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
            beforeSending: true
          })
      )
    )

  /** The message an earlier try sent: the account's own, with the same text, since the send was made. */
  const findMessage = (session: Session, message: OutgoingMessage) =>
    Effect.gen(function* () {
      const convoId = yield* conversationWith(session, message.trigger.authorId)
      const { data } = yield* chatCall("Reading the conversation", (signal) =>
        session.agent.chat.bsky.convo.getMessages(
          { convoId, limit: MESSAGES_LOOKED_AT },
          { signal, headers: chatHeaders }
        )
      )
      const mine = data.messages.find((m) => {
        const view = m as { id?: unknown; text?: unknown; sentAt?: unknown; sender?: { did?: unknown } }
        return (
          view.sender?.did === session.did &&
          view.text === message.text &&
          typeof view.sentAt === "string" &&
          Date.parse(view.sentAt) >= message.createdAt.getTime() - CLOCK_SKEW_MS
        )
      }) as { readonly id: string } | undefined
      return Option.map(Option.fromNullable(mine), (m): SentMessage => ({ channel: "dm", remoteId: m.id }))
    }).pipe(
      // A conversation that cannot be had holds no message of ours.
      Effect.catchIf(
        (failure) => failure.kind === "unavailable",
        () => Effect.succeed(Option.none<SentMessage>())
      )
    )

  const sendMessage = (session: Session, message: OutgoingMessage) =>
    Effect.gen(function* () {
      const convoId = yield* conversationWith(session, message.trigger.authorId)
      const rich = new session.api.RichText({ text: message.text })
      rich.detectFacetsWithoutResolution()
      const { data } = yield* chatCall("Sending the message", (signal) =>
        session.agent.chat.bsky.convo.sendMessage(
          {
            convoId,
            message: {
              text: rich.text,
              ...(rich.facets !== undefined && rich.facets.length > 0 ? { facets: rich.facets } : {})
            }
          },
          { signal, headers: chatHeaders }
        )
      )
      return { channel: "dm", remoteId: data.id } satisfies SentMessage
    })

  return {
    platform: "bluesky",
    readNew: (account, cursor, since) => readNew(account, cursor, since).pipe(Effect.withSpan("bluesky.inbox.readNew")),
    send: (account, message) =>
      withSession(
        account,
        (session): Effect.Effect<SentMessage, MessageFailure> =>
          message.channel === "reply" ? sendReply(session, message) : sendMessage(session, message)
      ).pipe(
        Effect.withSpan("bluesky.inbox.send", { attributes: { sendId: message.sendId, channel: message.channel } })
      ),
    findSent: (account, message) =>
      withSession(
        account,
        (session): Effect.Effect<Option.Option<SentMessage>, MessageFailure> =>
          message.channel === "reply" ? findReply(session, message) : findMessage(session, message)
      ).pipe(Effect.withSpan("bluesky.inbox.findSent", { attributes: { sendId: message.sendId } }))
  }
}
