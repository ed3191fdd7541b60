import { Clock, Effect, Encoding, Option } from "effect"
import { KnowledgeRepo } from "../../custom-ai/knowledge-ports.js"
import { Ids, Secrets } from "../../shared/ports.js"
import type { Product } from "../catalog/product.js"
import { StorePages } from "../catalog/store-pages.js"
import { courseOutline, courseUrlOf, lessonsOf } from "./course.js"
import { CoursesRepo } from "./ports.js"

/** Whether a product is a course: it sells a Custom AI with the AI turned off (`chat_enabled: false`). */
export const isCourse = (product: Product): product is Product & { readonly customAiId: string } =>
  product.kind === "custom_ai" && product.customAiId !== null && !product.fields.chat_enabled

/** The course pages' links, which the access email carries: one learner row per person and course. */
export const makeCourseLinks = Effect.gen(function* () {
  const repo = yield* CoursesRepo
  const knowledge = yield* KnowledgeRepo
  const ids = yield* Ids
  const secrets = yield* Secrets
  const { publicBase } = yield* StorePages

  /** A course's outline: its Custom AI's ready sources, filed in modules. */
  const outlineOf = (product: Product & { readonly customAiId: string }) =>
    Effect.map(knowledge.list(product.workspaceId, product.customAiId), courseOutline)

  /**
   * The link of `email`'s course page for `product`, made the first time (in the caller's transaction). None when the
   * product is not a course or has no lesson yet (a download, say): there is no page to open.
   */
  const linkFor = (product: Product, email: string, name: string | null) =>
    Effect.gen(function* () {
      if (!isCourse(product)) return Option.none<string>()
      if (lessonsOf(yield* outlineOf(product)).length === 0) return Option.none<string>()
      const learner = yield* repo.ensureLearner({
        id: yield* ids.make("lrn_"),
        workspaceId: product.workspaceId,
        productId: product.id,
        email,
        name,
        key: Encoding.encodeBase64Url(yield* secrets.randomBytes(24)),
        createdAt: new Date(yield* Clock.currentTimeMillis)
      })
      return Option.some(courseUrlOf(publicBase, learner))
    })

  return { linkFor, outlineOf } as const
})
