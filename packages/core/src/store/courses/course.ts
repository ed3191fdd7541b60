import type { KnowledgeSource } from "../../custom-ai/knowledge-schema.js"

/** The longest question a learner may ask on a lesson. */
export const LESSON_QUESTION_MAX = 4_000
/** The longest answer a seller may give to a lesson question. */
export const LESSON_ANSWER_MAX = 20_000
/** The longest name a learner may give with a question. */
export const LESSON_QUESTION_NAME_MAX = 120

/**
 * A person's place in a course: made the first time they are sent the course, one per person and course product.
 * Its `key` is the secret of their course page's link, so only they can open it and mark their lessons.
 */
export interface CourseLearner {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly email: string
  readonly name: string | null
  readonly key: string
  readonly createdAt: Date
}

/** One lesson of a course: a ready knowledge source of the course's Custom AI. */
export interface Lesson {
  readonly id: string
  readonly title: string
  /** Its module: the source's folder; null for a lesson filed in none. */
  readonly module: string | null
  /** The media asset shown with it (a video, an image, a sound), when the seller gave one. */
  readonly mediaId: string | null
}

/** A module of the outline, in the course's order; `title` null holds the lessons filed in no folder. */
export interface CourseModule {
  readonly title: string | null
  readonly lessons: ReadonlyArray<Lesson>
}

/**
 * A course's outline from its Custom AI's sources, in their list order (position, then age): every ready source is a
 * lesson, and its folder is its module. Modules come in the order their first lesson does, so a folder's lessons stay
 * together; lessons in no folder make a module of their own. A source that failed to load holds no text and is left
 * out until it is refreshed.
 */
export const courseOutline = (sources: ReadonlyArray<KnowledgeSource>): ReadonlyArray<CourseModule> => {
  const modules = new Map<string | null, Array<Lesson>>()
  for (const source of sources) {
    if (source.status !== "ready") continue
    const lessons = modules.get(source.folder) ?? []
    lessons.push({ id: source.id, title: source.title, module: source.folder, mediaId: source.mediaId })
    modules.set(source.folder, lessons)
  }
  return [...modules].map(([title, lessons]) => ({ title, lessons }))
}

/** Every lesson of an outline, in order. */
export const lessonsOf = (outline: ReadonlyArray<CourseModule>): ReadonlyArray<Lesson> =>
  outline.flatMap((module) => module.lessons)

/** A question a learner asked on a lesson: answered, or hidden from the lesson's page, by the seller. */
export interface LessonQuestion {
  readonly id: string
  readonly workspaceId: string
  readonly productId: string
  readonly productTitle: string
  readonly learnerId: string
  readonly lessonId: string
  readonly lessonTitle: string
  readonly email: string
  readonly name: string | null
  readonly text: string
  readonly answer: string | null
  readonly answeredAt: Date | null
  /** Kept off the lesson's page, where other learners read the questions and answers. */
  readonly hidden: boolean
  readonly createdAt: Date
}

/** Whether a lesson question still waits for its answer. */
export type LessonQuestionStatus = "open" | "answered"

export const lessonQuestionStatus = (question: LessonQuestion): LessonQuestionStatus =>
  question.answer === null ? "open" : "answered"

/** The learner's course page. */
export const courseUrlOf = (publicBase: string, learner: Pick<CourseLearner, "id" | "key">) =>
  `${publicBase}/learn/${encodeURIComponent(learner.id)}?k=${encodeURIComponent(learner.key)}`

/** One lesson's page for the learner. */
export const lessonUrlOf = (publicBase: string, learner: Pick<CourseLearner, "id" | "key">, lessonId: string) =>
  `${publicBase}/learn/${encodeURIComponent(learner.id)}/${encodeURIComponent(lessonId)}?k=${encodeURIComponent(learner.key)}`
