import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { PaidQuestion, PaidQuestionStatus } from "./paid-question.js"

/** The paid questions of each store. */
export class PaidQuestionsRepo extends Context.Tag("svc/store/PaidQuestionsRepo")<
  PaidQuestionsRepo,
  {
    /** Adds a question; `false` when its sale already has one (a resent payment event asks once). */
    readonly insert: (question: PaidQuestion) => Effect.Effect<boolean>
    readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<PaidQuestion>>
    /** By id alone, for the buyer's answer page (which checks the key). */
    readonly findById: (id: string) => Effect.Effect<Option.Option<PaidQuestion>>
    /** Sets the answer and when it was given. */
    readonly answer: (workspaceId: string, id: string, answer: string, at: Date) => Effect.Effect<void>
    /**
     * Questions newest first, optionally of one product, of one status, and asked within a window
     * (`after` < created_at < `before`).
     */
    readonly listPage: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly status?: PaidQuestionStatus | undefined
        readonly after?: Date | undefined
        readonly before?: Date | undefined
      },
      page: PageRequest
    ) => Effect.Effect<Page<PaidQuestion>>
  }
>() {}
