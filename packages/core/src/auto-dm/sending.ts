import { Data, Effect, Option } from "effect"
import { RateLimiter } from "../limits/ports.js"
import { Ids, Transactor } from "../shared/ports.js"
import { withSpan } from "../shared/spans.js"
import { now } from "../shared/time.js"
import { makeAccountOpener } from "../scheduling/accounts.js"
import { SocialAccountsRepo } from "../scheduling/ports.js"
import {
  AutoDmRulesRepo,
  AutoDmWorkRepo,
  type ClaimedInbox,
  type ClaimedSend,
  providedInboxes,
  MessageFailure,
  type OutgoingMessage,
  type SendRecord,
  type SentMessage
} from "./ports.js"
import { renderMessage, ruleMatches } from "./rules.js"
import { type AutoDmSend, channelsOf, MESSAGING, SEND_MAX_ATTEMPTS } from "./schema.js"

/** How often an account's inbox is read by default (the wait after a read that went well). */
export const POLL_INTERVAL_MS = 60_000
/** The wait before try `attempt + 1` after a temporary failure of try `attempt`: 30 s, 2, 10, 30 minutes, 1 hour. */
export const sendRetryDelayMs = (attempt: number): number =>
  [30_000, 120_000, 600_000, 1_800_000, 3_600_000][Math.min(attempt, 5) - 1] ?? 3_600_000
/** The longest `Retry-After` honoured; a longer one waits this long. */
const RETRY_AFTER_MAX_MS = 3_600_000

/** What became of one try of a send. */
type Outcome =
  | { readonly _tag: "sent"; readonly sent: SentMessage }
  | { readonly _tag: "lost" }
  | { readonly _tag: "budget"; readonly waitMs: number }
  | { readonly _tag: "skipped"; readonly reason: string }
  | { readonly _tag: "failed"; readonly failure: MessageFailure }

/**
 * The auto-DM work: reads each account's new replies and mentions, records one send per (rule, person) that matches
 * (before anything is sent, and before the inbox's cursor moves on), and sends them. A send tried before (a retry, or
 * one taken over after a crash) first asks the platform whether that try already went out, so a person never gets
 * the same rule's message twice.
 */
export class AutoDmSending extends Effect.Service<AutoDmSending>()("svc/auto-dm/AutoDmSending", {
  effect: Effect.gen(function* () {
    const rules = yield* AutoDmRulesRepo
    const work = yield* AutoDmWorkRepo
    const accounts = yield* SocialAccountsRepo
    const openAccount = yield* makeAccountOpener
    const inboxes = yield* providedInboxes
    const limiter = yield* RateLimiter
    const ids = yield* Ids
    const transactor = yield* Transactor

    const fail = (kind: MessageFailure["kind"], message: string) => new MessageFailure({ kind, message })

    /** The account opened for its inbox, or why it cannot be used now. */
    const accountOf = (accountId: string) =>
      Effect.gen(function* () {
        const found = yield* accounts.find(accountId)
        if (Option.isNone(found)) return yield* fail("rejected", "the account was disconnected")
        return yield* openAccount(found.value, (reason) => fail("credentials", reason))
      })

    const waitFor = (failure: MessageFailure, attempt: number) =>
      Math.min(RETRY_AFTER_MAX_MS, Math.max(failure.retryAfterMs ?? 0, sendRetryDelayMs(attempt)))

    /**
     * Reads one held inbox: new replies and mentions become sends of the rules they match (a person a rule already
     * answered is skipped by the sends' unique key), then the cursor moves on, in one transaction.
     */
    const poll = (inbox: ClaimedInbox, pollMs: number = POLL_INTERVAL_MS) =>
      Effect.gen(function* () {
        const enabled = yield* rules.enabledFor(inbox.accountId)
        const read = Effect.gen(function* () {
          const account = yield* accountOf(inbox.accountId)
          const platformInbox = inboxes.get(account.platform)
          if (platformInbox === undefined)
            return yield* fail("rejected", `this server reads no ${account.platform} inbox`)
          const since = new Date(Math.min(...enabled.map((r) => r.createdAt.getTime())))
          return yield* platformInbox.readNew(account, inbox.cursor, since)
        })
        const outcome = enabled.length === 0 ? Effect.succeed({ items: [], cursor: inbox.cursor }) : read
        const result = yield* Effect.either(
          outcome.pipe(
            Effect.catchAllDefect((defect) => Effect.fail(fail("temporary", `the inbox broke: ${String(defect)}`)))
          )
        )
        const at = yield* now
        if (result._tag === "Left") {
          const failure = result.left
          if (failure.kind === "credentials") yield* accounts.markNeedsReconnect(inbox.accountId, failure.message, at)
          const waitMs = Math.min(RETRY_AFTER_MAX_MS, Math.max(failure.retryAfterMs ?? 0, POLL_INTERVAL_MS * 5))
          yield* work.recordInbox(inbox.accountId, inbox.claimToken, {
            cursor: inbox.cursor,
            nextPollAt: new Date(at.getTime() + waitMs),
            error: failure.message
          })
          return 0
        }
        const sends: Array<AutoDmSend> = []
        for (const item of result.right.items) {
          for (const rule of enabled) {
            if (!ruleMatches(rule, item)) continue
            sends.push({
              id: yield* ids.make("ads_"),
              ruleId: rule.id,
              workspaceId: rule.workspaceId,
              accountId: rule.accountId,
              personId: item.authorId,
              personHandle: item.authorHandle,
              trigger: item,
              text: renderMessage(rule.template, rule.link, { handle: item.authorHandle, name: item.authorName }),
              status: "pending",
              attempts: 0,
              nextAttemptAt: at,
              triedChannels: [],
              channel: null,
              remoteId: null,
              error: null,
              sentAt: null,
              createdAt: at
            })
          }
        }
        // The sends are stored before the cursor moves past what made them, in one transaction: a crash before it
        // commits reads the same replies again, and a second read of one finds its sends already there.
        return yield* transactor
          .withTransaction(
            Effect.gen(function* () {
              const added = sends.length === 0 ? 0 : yield* work.insertSends(sends)
              const kept = yield* work.recordInbox(inbox.accountId, inbox.claimToken, {
                cursor: result.right.cursor,
                nextPollAt: new Date(at.getTime() + pollMs),
                error: null
              })
              // Another worker took the inbox over (this one stalled past its lease): its read stands, not this one.
              if (!kept) return yield* new InboxLost()
              return added
            })
          )
          .pipe(Effect.catchTag("InboxLost", () => Effect.succeed(0)))
      }).pipe(withSpan("AutoDmSending.poll", { attributes: { "svc.account.id": inbox.accountId } }))

    /** One try of a send: asks first whether an earlier try went out, then sends on the rule's channels in order. */
    const attempt = (send: ClaimedSend): Effect.Effect<Outcome> =>
      Effect.gen(function* () {
        const rule = yield* rules.find(send.workspaceId, send.ruleId)
        if (Option.isNone(rule)) return { _tag: "skipped", reason: "the rule was deleted" } as const
        if (!rule.value.enabled) {
          return { _tag: "skipped", reason: "the rule was turned off before the message went out" } as const
        }
        const account = yield* accountOf(send.accountId)
        const inbox = inboxes.get(account.platform)
        if (inbox === undefined) return yield* fail("rejected", `this server no longer sends on ${account.platform}`)
        const channels = channelsOf(rule.value.delivery)
        const messageOn = (channel: (typeof channels)[number]): OutgoingMessage => ({
          sendId: send.id,
          createdAt: send.createdAt,
          channel,
          text: send.text,
          trigger: send.trigger
        })
        // An earlier try may have sent on these (it wrote them down before sending): ask before sending again.
        for (const channel of send.triedChannels) {
          const earlier = yield* inbox.findSent(account, messageOn(channel))
          if (Option.isSome(earlier)) return { _tag: "sent", sent: earlier.value } as const
        }
        const budget = MESSAGING[account.platform]?.budget
        if (budget !== undefined) {
          const decision = yield* limiter.take(`auto-dm:${account.id}`, budget.limit, budget.windowMs)
          if (!decision.allowed) return { _tag: "budget", waitMs: decision.retryAfterMs } as const
        }
        // A worker that stalled past its lease (another took the send over) must not send a second copy.
        if (!(yield* work.holdsSend(send.id, send.claimToken, yield* now))) return { _tag: "lost" } as const
        let last: MessageFailure | undefined
        let mayHaveSent = send.triedChannels.filter((c) => channels.includes(c))
        const noteTried = (next: ReadonlyArray<(typeof channels)[number]>) =>
          Effect.gen(function* () {
            mayHaveSent = [...next]
            if (!(yield* work.markTried(send.id, send.claimToken, next))) return yield* new ClaimLost()
          })
        for (const channel of channels) {
          if (!mayHaveSent.includes(channel)) yield* noteTried([...mayHaveSent, channel])
          const tried = yield* Effect.either(inbox.send(account, messageOn(channel)))
          if (tried._tag === "Right") return { _tag: "sent", sent: tried.right } as const
          last = tried.left
          // Nothing went out on this channel (the platform said so before any message could): forget it.
          if (tried.left.beforeSending === true || tried.left.kind === "unavailable") {
            yield* noteTried(mayHaveSent.filter((c) => c !== channel))
          }
          // A channel that cannot reach the person gives way to the next one, and so does one that failed for a
          // while before anything went out on it (a chat service its server cannot reach); a failure that may have
          // sent something is tried again on the same channel, after asking whether it went out.
          const gaveWay =
            tried.left.kind === "unavailable" || (tried.left.kind === "temporary" && tried.left.beforeSending === true)
          if (!gaveWay) break
        }
        return yield* last ?? fail("rejected", "no channel to send on")
      }).pipe(
        Effect.catchTag("ClaimLost", () => Effect.succeed({ _tag: "lost" } as const)),
        Effect.catchAll((failure) => Effect.succeed({ _tag: "failed", failure } as const)),
        // A defect in an inbox adapter fails this try for a while, never the worker.
        Effect.catchAllDefect((defect) =>
          Effect.succeed({ _tag: "failed", failure: fail("temporary", `the inbox broke: ${String(defect)}`) } as const)
        )
      )

    /** What a try's outcome makes of the send. */
    const recordOf = (send: ClaimedSend, outcome: Exclude<Outcome, { _tag: "lost" }>, at: Date): SendRecord => {
      const none = { channel: null, remoteId: null, sentAt: null } as const
      switch (outcome._tag) {
        case "sent":
          return {
            status: "sent",
            attempts: send.attempts,
            nextAttemptAt: null,
            channel: outcome.sent.channel,
            remoteId: outcome.sent.remoteId,
            error: null,
            sentAt: at
          }
        case "budget":
          // Waiting for the account's budget is not a try.
          return {
            ...none,
            status: "pending",
            attempts: send.attempts - 1,
            nextAttemptAt: new Date(at.getTime() + Math.max(outcome.waitMs, 1_000)),
            error: "waiting for the account's message budget"
          }
        case "skipped":
          return { ...none, status: "skipped", attempts: send.attempts, nextAttemptAt: null, error: outcome.reason }
        case "failed": {
          const { failure } = outcome
          const retry = failure.kind === "temporary" && send.attempts < SEND_MAX_ATTEMPTS
          return {
            ...none,
            status: retry ? "pending" : "failed",
            attempts: send.attempts,
            nextAttemptAt: retry ? new Date(at.getTime() + waitFor(failure, send.attempts)) : null,
            error:
              failure.kind === "credentials"
                ? `the account's credentials stopped working (${failure.message}); reconnect it at the address svc_connect_social_accounts answers`
                : retry
                  ? `${failure.message} (try ${send.attempts} of ${SEND_MAX_ATTEMPTS}; trying again)`
                  : failure.message
          }
        }
      }
    }

    /** Sends one claimed send and records what became of it. */
    const run = (send: ClaimedSend) =>
      Effect.gen(function* () {
        const outcome = yield* attempt(send)
        // The claim was lost before sending: whoever holds it now sends and records it.
        if (outcome._tag === "lost") return
        const at = yield* now
        if (outcome._tag === "failed" && outcome.failure.kind === "credentials") {
          yield* accounts.markNeedsReconnect(send.accountId, outcome.failure.message, at)
        }
        yield* work.recordSend(send.id, send.claimToken, recordOf(send, outcome, at))
      }).pipe(withSpan("AutoDmSending.run", { attributes: { "svc.send.id": send.id } }))

    return { poll, run }
  })
}) {}

/** The inbox's claim passed to another worker while this one read it (its transaction is rolled back). */
class InboxLost extends Data.TaggedError("InboxLost") {}

/** The send's claim passed to another worker (this one stalled past its lease): it must not send. */
class ClaimLost extends Data.TaggedError("ClaimLost") {}
