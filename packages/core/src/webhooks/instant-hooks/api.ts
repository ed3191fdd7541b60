import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Schema } from "effect"
import { strict } from "../../shared/list-wire.js"
import { INSTANT_HOOK_EVENTS } from "./events.js"

const ok = Schema.Literal(true)

const eventList = Object.entries(INSTANT_HOOK_EVENTS)
  .map(([name, event]) => `${name} (GET ${event.feed})`)
  .join(", ")

/** Instant hooks of the store API: the automation tool subscribes a target and gets `{ event, ids }` pushed. */
export const InstantHooksApiGroup = HttpApiGroup.make("hooks")
  .add(
    HttpApiEndpoint.post("subscribe", "/hooks")
      .setPayload(
        Schema.Struct({
          event: Schema.String.annotations({
            description: `One of: ${eventList}. About every 15 seconds the target gets { event, ids } with the ids that feed lists for the new rows, oldest first; rows in the feed before subscribing never fire.`
          }),
          target_url: Schema.String.annotations({
            description: "https address on the automation tool's hook domain."
          })
        }).annotations(strict)
      )
      .addSuccess(
        Schema.Struct({
          ok,
          id: Schema.String.annotations({ description: "The hook's id; the same event and target again answer it." })
        }),
        { status: 201 }
      )
  )
  .add(
    HttpApiEndpoint.del("unsubscribe", "/hooks/:id")
      .setPath(Schema.Struct({ id: Schema.String }))
      .addSuccess(Schema.Struct({ ok, id: Schema.String, deleted: Schema.Literal(true) }))
  )
