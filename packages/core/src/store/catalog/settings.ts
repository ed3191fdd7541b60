import { Effect, Option, Schema } from "effect"
import { Email } from "../../accounts/schema.js"
import { invalid } from "../../shared/errors.js"
import { StoreSettingsRepo } from "./ports.js"
import type { StoreSettings } from "./product-rules.js"

/** Reading and changing a store's settings (support email, card processor, buyers joining the email list). */
export class StoreSetup extends Effect.Service<StoreSetup>()("svc/store/StoreSetup", {
  effect: Effect.gen(function* () {
    const repo = yield* StoreSettingsRepo

    /** The store's settings (defaults: no support email, no card processor, buyers join the email list). */
    const get = (workspaceId: string) =>
      Effect.map(
        repo.find(workspaceId),
        Option.getOrElse(
          (): StoreSettings => ({
            workspaceId,
            supportEmail: null,
            cardProcessor: "none",
            emailListAddBuyers: true,
            emailDoubleOptIn: false
          })
        )
      )

    /** Changes the fields given; `supportEmail: null` clears it. */
    const set = (
      workspaceId: string,
      changes: {
        readonly supportEmail?: string | null | undefined
        readonly cardProcessor?: string | undefined
        readonly emailListAddBuyers?: boolean | undefined
        readonly emailDoubleOptIn?: boolean | undefined
      }
    ) =>
      Effect.gen(function* () {
        const current = yield* get(workspaceId)
        let supportEmail = current.supportEmail
        if (changes.supportEmail !== undefined) {
          supportEmail =
            changes.supportEmail === null
              ? null
              : yield* Schema.decodeUnknown(Email)(changes.supportEmail).pipe(
                  Effect.mapError(() =>
                    invalid("supportEmail", "the support email must be an address like help@example.com")
                  )
                )
        }
        const processor = changes.cardProcessor ?? current.cardProcessor
        if (processor !== "connected" && processor !== "none") {
          return yield* invalid("cardProcessor", "the card processor is connected or none")
        }
        const next: StoreSettings = {
          workspaceId,
          supportEmail,
          cardProcessor: processor,
          emailListAddBuyers: changes.emailListAddBuyers ?? current.emailListAddBuyers,
          emailDoubleOptIn: changes.emailDoubleOptIn ?? current.emailDoubleOptIn
        }
        yield* repo.save(next)
        return next
      })

    return { get, set } as const
  })
}) {}
