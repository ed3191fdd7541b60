import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { BrowserSessions } from "@svc/core/auth"
import { composeMail, MailOutbox, MailSigner } from "@svc/core/mail"
import { decodeCursor, encodeCursor } from "@svc/core/shared"
import { Context, Effect, Either, Layer, Option } from "effect"
import { errorPages, redirectTo, signedInSession, signInPath } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { currentAuthUrl } from "../oauth/config.js"
import { outboxPage } from "./pages.js"

const PAGE_SIZE = 25

/** Whether this server hands mail to an SMTP server (the outbox page says which it is). */
export class MailDelivery extends Context.Tag("svc/http/MailDelivery")<
  MailDelivery,
  { readonly delivering: boolean }
>() {
  /** No SMTP server: the outbox is a development mail catcher. */
  static readonly Catcher: Layer.Layer<MailDelivery> = Layer.succeed(MailDelivery, { delivering: false })
}

/**
 * `GET /settings/outbox`: the signed-in owner's mail, newest first and paged, each message as it goes out (list mail
 * with its unsubscribe footer), so without SMTP the owner reads there what would have been sent.
 */
export const OutboxRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | BrowserSessions | MailOutbox | MailSigner
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const auth = yield* currentAuthUrl
    const url = yield* PublicUrl
    const sessions = yield* BrowserSessions
    const outbox = yield* MailOutbox
    const signer = yield* MailSigner
    const delivery = yield* Effect.serviceOption(MailDelivery)
    const errors = errorPages(auth.base)
    const withDefectsAnswered = errors.answerDefects

    const show = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const signedIn = yield* signedInSession(sessions, request, auth)
        if (Option.isNone(signedIn)) return redirectTo(signInPath(auth.base), 303)
        const { account } = signedIn.value
        const cursor = new URL(request.url, "http://localhost").searchParams.get("cursor")
        const after = cursor === null ? Either.right(undefined) : decodeCursor(cursor)
        if (Either.isLeft(after)) return errors.error("Not a page of the outbox", after.left.message)
        const found = yield* outbox.listForOwner(account.id, { limit: PAGE_SIZE, after: after.right })
        const messages = yield* Effect.forEach(found.rows, (message) =>
          Effect.map(composeMail(message, url.base), (composed) => ({ ...message, shownText: composed.text }))
        ).pipe(Effect.provideService(MailSigner, signer))
        return outboxPage({
          base: auth.base,
          email: account.email,
          messages,
          delivering: Option.match(delivery, { onNone: () => false, onSome: (d) => d.delivering }),
          next: found.next === undefined ? undefined : encodeCursor(found.next)
        })
      })

    yield* router.add("GET", "/settings/outbox", (request) => withDefectsAnswered(show(request)))
  })
)
