import { Context, type Effect, type Option } from "effect"
import type { CustomAi } from "./schema.js"

/** Stored Custom AIs. */
export class CustomAisRepo extends Context.Tag("svc/custom-ai/CustomAisRepo")<
  CustomAisRepo,
  {
    readonly insert: (customAi: CustomAi) => Effect.Effect<void>
    /** One Custom AI of the workspace (never another workspace's). */
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<CustomAi>>
    /** The workspace's Custom AIs, newest first. */
    readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<CustomAi>>
  }
>() {}
