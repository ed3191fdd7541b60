import { Clock, Effect, Option } from "effect"
import type { Store } from "../../accounts/workspace.js"
import { makeEventRecorder } from "../../events/service.js"
import { Mailer, MailSigner } from "../../mail/ports.js"
import { readLink, signLink } from "../../mail/signed-links.js"
import { confirmSubscriptionEmail } from "../../mail/templates.js"
import { invalid } from "../../shared/errors.js"
import { Ids, Transactor } from "../../shared/ports.js"
import { readEmailAddress } from "./email-address.js"
import { CONTACT_NAME_MAX } from "./email-contacts.js"
import { EmailContactsRepo } from "./ports.js"
import { StoreSetup } from "../catalog/settings.js"

/** How long a double opt-in link stays good. */
export const CONFIRM_LINK_DAYS = 7

const PURPOSE = "confirm-signup"

/** What a sign-up became: on the list now, or waiting for the person to confirm by email. */
export type SignupOutcome = "joined" | "confirm_sent"

/** A visitor's sign-up on the store's public page. */
export interface SignupInput {
  readonly email: string
  readonly name?: string | undefined
}

/**
 * Sign-ups to a store's email list from its public page (spec: New Email Signup, `lead.created`). A new address joins
 * as `subscribed` (source `signup`) and writes `lead.created` once: the contact's unique key decides, so parallel
 * sign-ups of one address make one contact and one event. With double opt-in on, and for anyone who left the list
 * (only they may come back), the person is emailed a signed link instead and joins when they open it. An address that
 * bounced or complained is never emailed: the visitor sees the same page as anyone, so the page reveals no one's state.
 */
export class StoreSignups extends Effect.Service<StoreSignups>()("svc/store/StoreSignups", {
  dependencies: [StoreSetup.Default],
  effect: Effect.gen(function* () {
    const contacts = yield* EmailContactsRepo
    const setup = yield* StoreSetup
    const mailer = yield* Mailer
    const signer = yield* MailSigner
    const ids = yield* Ids
    const transactor = yield* Transactor
    const recordEvent = yield* makeEventRecorder

    const readInput = (input: SignupInput) =>
      Effect.gen(function* () {
        const email = yield* readEmailAddress("email", input.email, "Enter an email address like name@example.com.")
        const name = input.name?.trim() ?? ""
        if (name.length > CONTACT_NAME_MAX) return yield* invalid("name", `At most ${CONTACT_NAME_MAX} characters.`)
        return { email, name: name === "" ? null : name }
      })

    /** Puts the person on the list (or back on it, when they confirmed), writing `lead.created` for a new address. */
    const join = (workspaceId: string, email: string, name: string | null) =>
      transactor.withTransaction(
        Effect.gen(function* () {
          const at = new Date(yield* Clock.currentTimeMillis)
          const added = yield* contacts.insert({
            id: yield* ids.make("con_"),
            workspaceId,
            email,
            name,
            status: "subscribed",
            source: "signup",
            createdAt: at,
            updatedAt: at,
            unsubscribedAt: null
          })
          if (added) {
            yield* recordEvent(workspaceId, "lead.created", {
              email,
              name,
              marketing_consent: true,
              source: "signup_form",
              created_at: at.toISOString()
            })
            return
          }
          const found = yield* contacts.lock(workspaceId, email)
          if (Option.isNone(found)) return
          const contact = found.value
          // Confirmed by the person themselves: one who unsubscribed is back. Bounced and complained stay out.
          if (contact.status === "unsubscribed") {
            yield* contacts.update({ ...contact, status: "subscribed", unsubscribedAt: null, updatedAt: at })
          } else if (contact.status === "subscribed" && name !== null && contact.name === null) {
            yield* contacts.update({ ...contact, name, updatedAt: at })
          }
        })
      )

    const sendConfirmation = (store: Store, publicBase: string, email: string, name: string | null) =>
      Effect.gen(function* () {
        const expires = (yield* Clock.currentTimeMillis) + CONFIRM_LINK_DAYS * 86_400_000
        const token = yield* signLink(PURPOSE, [store.workspaceId, email, name ?? "", String(expires)]).pipe(
          Effect.provideService(MailSigner, signer)
        )
        const confirmUrl = `${publicBase.replace(/\/+$/, "")}/s/${store.handle}/confirm/${token}`
        yield* mailer.send({
          workspaceId: store.workspaceId,
          to: email,
          ...confirmSubscriptionEmail({ storeName: store.name, confirmUrl })
        })
      })

    /** A visitor signs up: joins at once, or is sent a link to confirm (see the class comment). */
    const signUp = (store: Store, publicBase: string, input: SignupInput) =>
      Effect.gen(function* () {
        const { email, name } = yield* readInput(input)
        const settings = yield* setup.get(store.workspaceId)
        const existing = yield* contacts.find(store.workspaceId, email)
        const status = Option.map(existing, (c) => c.status)
        if (Option.contains(status, "bounced") || Option.contains(status, "complained")) {
          return settings.emailDoubleOptIn ? ("confirm_sent" as const) : ("joined" as const)
        }
        if (settings.emailDoubleOptIn || Option.contains(status, "unsubscribed")) {
          if (!Option.contains(status, "subscribed")) yield* sendConfirmation(store, publicBase, email, name)
          return "confirm_sent" as const
        }
        yield* join(store.workspaceId, email, name)
        return "joined" as const
      })

    /** Opens a confirmation link: the person joins the list. None for a link not ours, for another store, or expired. */
    const confirm = (store: Store, token: string) =>
      Effect.gen(function* () {
        const fields = yield* readLink(PURPOSE, token, 4).pipe(Effect.provideService(MailSigner, signer))
        if (Option.isNone(fields)) return Option.none<{ readonly email: string }>()
        const [workspaceId = "", email = "", name = "", expires = "0"] = fields.value
        if (workspaceId !== store.workspaceId || Number(expires) < (yield* Clock.currentTimeMillis)) {
          return Option.none<{ readonly email: string }>()
        }
        yield* join(workspaceId, email, name === "" ? null : name)
        return Option.some({ email })
      })

    return { signUp, confirm } as const
  })
}) {}
