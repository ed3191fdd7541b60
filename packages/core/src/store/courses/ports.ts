import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { CourseLearner, LessonQuestion, LessonQuestionStatus } from "./course.js"

/** Learners of the store's courses, the lessons they finished, and the questions they asked. */
export class CoursesRepo extends Context.Tag("svc/store/CoursesRepo")<
  CoursesRepo,
  {
    /** The person's learner row of the course: `learner` is added unless they already have one, which is answered. */
    readonly ensureLearner: (learner: CourseLearner) => Effect.Effect<CourseLearner>
    /** By id alone, for the course page (which checks the key). */
    readonly findLearner: (id: string) => Effect.Effect<Option.Option<CourseLearner>>
    /** Locks the learner's row for the caller's transaction, so two completions of one learner run one at a time. */
    readonly lockLearner: (id: string) => Effect.Effect<void>
    /** The lessons the learner finished, by lesson id. */
    readonly completed: (learnerId: string) => Effect.Effect<ReadonlySet<string>>
    /** Marks a lesson finished; `false` when it already was. */
    readonly complete: (workspaceId: string, learnerId: string, lessonId: string, at: Date) => Effect.Effect<boolean>
    readonly insertQuestion: (question: LessonQuestion) => Effect.Effect<void>
    readonly findQuestion: (workspaceId: string, id: string) => Effect.Effect<Option.Option<LessonQuestion>>
    /** The questions of a lesson other learners may read (not hidden), oldest first, at most `limit`. */
    readonly shownQuestions: (
      workspaceId: string,
      productId: string,
      lessonId: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<LessonQuestion>>
    /** The questions a learner asked on a lesson, hidden or not, oldest first. */
    readonly questionsOf: (learnerId: string, lessonId: string) => Effect.Effect<ReadonlyArray<LessonQuestion>>
    /** How many questions the learner asked since `since`: the page's limit on asking. */
    readonly askedSince: (learnerId: string, since: Date) => Effect.Effect<number>
    readonly answer: (workspaceId: string, id: string, answer: string, at: Date) => Effect.Effect<void>
    readonly setHidden: (workspaceId: string, id: string, hidden: boolean) => Effect.Effect<void>
    /**
     * Questions newest first, optionally of one product, one lesson, one status, and asked within a window
     * (`after` < created_at < `before`).
     */
    readonly listQuestions: (
      workspaceId: string,
      filter: {
        readonly productId?: string | undefined
        readonly lessonId?: string | undefined
        readonly status?: LessonQuestionStatus | undefined
        readonly after?: Date | undefined
        readonly before?: Date | undefined
      },
      page: PageRequest
    ) => Effect.Effect<Page<LessonQuestion>>
  }
>() {}
