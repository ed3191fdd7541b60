import { WorkspacesRepo } from "@svc/core/accounts"
import { CustomAis } from "@svc/core/custom-ai"
import { NotFound } from "@svc/core/shared"
import { cohortJson, StoreCohorts, StoreSetup, StoreTagging } from "@svc/core/store"
import { Effect, Option } from "effect"
import { accountByEmail } from "./accounts.js"
import { type Output, report } from "./output.js"

/** The store a command acts on: `--store <handle>` of the owner, else the owner's default workspace's store. */
export const storeOf = (email: string, handle: string | undefined) =>
  Effect.gen(function* () {
    const account = yield* accountByEmail(email)
    const workspaces = yield* WorkspacesRepo
    const workspaceId =
      handle === undefined
        ? Option.map(yield* workspaces.findDefault(account.id), (w) => w.id)
        : Option.map(yield* workspaces.findStoreByHandle(handle), (s) => s.workspaceId)
    const workspace = yield* Option.match(workspaceId, {
      onNone: () => Effect.succeedNone,
      onSome: (id) => workspaces.findById(id)
    })
    if (Option.isNone(workspace) || workspace.value.ownerId !== account.id) {
      return yield* new NotFound({
        message:
          handle === undefined ? `${account.email} has no default workspace` : `${account.email} has no store ${handle}`
      })
    }
    const store = yield* workspaces.findStore(workspace.value.id)
    return {
      account,
      workspaceId: workspace.value.id,
      handle: Option.match(store, { onNone: () => null, onSome: (s) => s.handle })
    }
  })

/**
 * `svc store set --email <owner> [--store <handle>] [--support-email <address>|none] [--card-processor connected|none]
 * [--email-list-add-buyers on|off] [--email-double-opt-in on|off]`
 */
export const setStore = (
  input: {
    readonly email: string
    readonly store: string | undefined
    readonly supportEmail: string | undefined
    readonly cardProcessor: "connected" | "none" | undefined
    readonly emailListAddBuyers: boolean | undefined
    readonly emailDoubleOptIn: boolean | undefined
  },
  output: Output
) =>
  Effect.gen(function* () {
    const { workspaceId, handle } = yield* storeOf(input.email, input.store)
    const settings = yield* (yield* StoreSetup).set(workspaceId, {
      supportEmail: input.supportEmail === "none" ? null : input.supportEmail,
      cardProcessor: input.cardProcessor,
      emailListAddBuyers: input.emailListAddBuyers,
      emailDoubleOptIn: input.emailDoubleOptIn
    })
    yield* report(
      output,
      {
        store: {
          handle,
          workspaceId,
          supportEmail: settings.supportEmail,
          cardProcessor: settings.cardProcessor,
          emailListAddBuyers: settings.emailListAddBuyers,
          emailDoubleOptIn: settings.emailDoubleOptIn
        }
      },
      [
        `Store ${handle ?? workspaceId}: support email ${settings.supportEmail ?? "not set"}, card processor ${settings.cardProcessor}, buyers ${settings.emailListAddBuyers ? "join" : "do not join"} the email list, sign-ups ${settings.emailDoubleOptIn ? "confirm by email first" : "join at once"}.`
      ]
    )
  })

/** `svc custom-ais create --email <owner> --name <name> [--store <handle>]` */
export const createCustomAi = (
  input: { readonly email: string; readonly store: string | undefined; readonly name: string },
  output: Output
) =>
  Effect.gen(function* () {
    const { workspaceId } = yield* storeOf(input.email, input.store)
    const customAi = yield* (yield* CustomAis).create(workspaceId, { name: input.name })
    yield* report(
      output,
      { id: customAi.id, customAi: { id: customAi.id, name: customAi.name, kind: customAi.kind, workspaceId } },
      [`Created Custom AI ${customAi.name}: ${customAi.id}`, "Sell it: POST /store-app/v1/products with custom_ai_id."]
    )
  })

/** `svc cohorts create --email <owner> --product <id> --name <n> [--capacity N] [--starts-on YYYY-MM-DD] [--store <handle>]` */
export const createCohort = (
  input: {
    readonly email: string
    readonly store: string | undefined
    readonly product: string
    readonly name: string
    readonly capacity: number | undefined
    readonly startsOn: string | undefined
  },
  output: Output
) =>
  Effect.gen(function* () {
    const { workspaceId } = yield* storeOf(input.email, input.store)
    const created = yield* (yield* StoreCohorts).create(workspaceId, {
      productId: input.product,
      name: input.name,
      capacity: input.capacity ?? null,
      startsOn: input.startsOn ?? null
    })
    const cohort = cohortJson(created)
    yield* report(output, { id: cohort.id, cohort }, [
      `Created cohort ${cohort.name}: ${cohort.id} (capacity ${cohort.capacity ?? "none"}, starts ${cohort.starts_on ?? "not set"})`,
      `Move a buyer in: POST /store-app/v1/customers/cohort with product ${cohort.product_id} and cohort ${cohort.id}.`
    ])
  })

/** `svc customers tag --email <owner> --customer <email> --tag <name> [--tag <name> ...] [--store <handle>]` */
export const tagCustomer = (
  input: {
    readonly email: string
    readonly store: string | undefined
    readonly customer: string
    readonly tags: ReadonlyArray<string>
  },
  output: Output
) =>
  Effect.gen(function* () {
    const { workspaceId } = yield* storeOf(input.email, input.store)
    const tagged = yield* (yield* StoreTagging).tagPerson(workspaceId, input.customer, input.tags)
    yield* report(output, tagged, [
      `${tagged.email} is tagged ${tagged.tags.map((t) => `${t.name} (${t.id})`).join(", ")}.`
    ])
  })
