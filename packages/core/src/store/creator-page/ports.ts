import { Context, type Effect, type Option } from "effect"
import type { CreatorPage } from "./creator-page.js"

/** Each store's creator page, one per workspace. */
export class CreatorPagesRepo extends Context.Tag("svc/store/CreatorPagesRepo")<
  CreatorPagesRepo,
  {
    readonly find: (workspaceId: string) => Effect.Effect<Option.Option<CreatorPage>>
    /** Writes the page whole (made on its first save). */
    readonly save: (page: CreatorPage) => Effect.Effect<void>
  }
>() {}
