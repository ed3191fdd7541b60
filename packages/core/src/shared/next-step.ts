import { Schema } from "effect"

/**
 * Where a caller finds what a refused call needs next: the list that holds what was not found, or the way to change
 * what already exists. The domain names the step; each face says it in its own terms (a store API route, a tool),
 * so a use case never names one face's routes to another face's callers.
 */
export const NextStep = Schema.Union(
  Schema.TaggedStruct("ListProducts", {}),
  Schema.TaggedStruct("ListCustomAis", {}),
  /** A product's cohorts; without `productId`, the cohorts of whichever product the caller means. */
  Schema.TaggedStruct("ListCohorts", { productId: Schema.optional(Schema.String) }),
  Schema.TaggedStruct("ListForms", {}),
  Schema.TaggedStruct("ListEventTypes", {}),
  Schema.TaggedStruct("ListPaidQuestions", {}),
  Schema.TaggedStruct("ListReviews", {}),
  Schema.TaggedStruct("ListLessonQuestions", {}),
  Schema.TaggedStruct("ChangeProduct", {})
)
export type NextStep = typeof NextStep.Type

/** The step with tag `K`. */
export type NextStepOf<K extends NextStep["_tag"]> = Extract<NextStep, { readonly _tag: K }>

/** How one face says each next step; one entry per tag, so a new step fails to compile until every face says it. */
export type NextStepWords = {
  readonly [K in NextStep["_tag"]]: (step: NextStepOf<K>) => string
}

/** `step` in a face's words. */
export const sayNextStep = (words: NextStepWords, step: NextStep): string =>
  (words[step._tag] as (step: NextStep) => string)(step)

/** A message followed by its next step in a face's words, as `<message>; <step>`. */
export const withNextStep = (words: NextStepWords, message: string, step: NextStep | undefined): string =>
  step === undefined ? message : `${message}; ${sayNextStep(words, step)}`
