import type { MediaAsset } from "@svc/core/media"
import {
  type CourseView,
  LESSON_QUESTION_MAX,
  LESSON_QUESTION_NAME_MAX,
  type LessonQuestion,
  type LessonView,
  lessonsOf
} from "@svc/core/store"
import { type Html, html, page } from "../browser/index.js"
import { type FieldErrors, fieldError, honeypot, invalidAttrs, type Typed } from "../public-pages/pages.js"
import { lessonHtml } from "./markdown.js"

/** Where a learner's pages are: every link carries their key, the secret of the course link they were emailed. */
export interface LearnerLinks {
  readonly course: string
  readonly lesson: (lessonId: string) => string
  readonly complete: (lessonId: string) => string
  readonly ask: (lessonId: string) => string
  readonly media: (lessonId: string) => string
}

/** The course link's parts, each escaped for a path or a query. */
export const learnerLinks = (base: string, learnerId: string, key: string): LearnerLinks => {
  const at = `${base}/learn/${encodeURIComponent(learnerId)}`
  const k = `k=${encodeURIComponent(key)}`
  const lessonAt = (lessonId: string) => `${at}/${encodeURIComponent(lessonId)}`
  return {
    course: `${at}?${k}`,
    lesson: (lessonId) => `${lessonAt(lessonId)}?${k}`,
    complete: (lessonId) => `${lessonAt(lessonId)}/complete?${k}`,
    ask: (lessonId) => `${lessonAt(lessonId)}/questions?${k}`,
    media: (lessonId) => `${lessonAt(lessonId)}/media?${k}`
  }
}

const progressOf = (course: CourseView) => {
  const lessons = lessonsOf(course.outline)
  const done = lessons.filter((lesson) => course.completed.has(lesson.id)).length
  return { lessons, done, total: lessons.length }
}

const progressLine = (course: CourseView): Html => {
  const { done, total } = progressOf(course)
  return html`<p id="progress-text">${done === total && total > 0 ? "You finished every lesson." : `${done} of ${total} lessons finished.`}</p>
<progress max="${String(Math.max(total, 1))}" value="${String(done)}" aria-labelledby="progress-text"></progress>`
}

/** `GET /learn/<learner>`: the course's modules and lessons, what the learner finished, and where to go on. */
export const coursePage = (base: string, links: LearnerLinks, course: CourseView) => {
  const { lessons } = progressOf(course)
  const next = lessons.find((lesson) => !course.completed.has(lesson.id))
  return page({
    base,
    title: course.product.fields.title,
    body: html`<section class="card" aria-labelledby="title">
<p class="muted">${course.storeName}</p>
<h1 id="title">${course.product.fields.title}</h1>
${progressLine(course)}
${
  lessons.length === 0
    ? html`<p>The lessons are not ready yet. Come back to this page later.</p>`
    : next === undefined
      ? html`<p>Go back to any lesson below.</p>`
      : html`<div class="actions"><a class="button" href="${links.lesson(next.id)}">${course.completed.size === 0 ? "Start" : "Continue"}: ${next.title}</a></div>`
}
</section>
${course.outline.map(
  (module, index) => html`<section class="card" aria-labelledby="module-${String(index)}">
<h2 id="module-${String(index)}">${module.title ?? (course.outline.length === 1 ? "Lessons" : "Start here")}</h2>
<ol class="lessons">
${module.lessons.map(
  (lesson) =>
    html`<li><a href="${links.lesson(lesson.id)}">${lesson.title}</a>${course.completed.has(lesson.id) ? html` <span class="done">Finished</span>` : html``}</li>`
)}
</ol>
</section>`
)}`
  })
}

const mediaBlock = (links: LearnerLinks, view: LessonView, asset: MediaAsset | null): Html => {
  if (asset === null) return html``
  const src = links.media(view.lesson.id)
  switch (asset.kind) {
    case "video":
      return html`<div class="lesson-media"><video controls preload="metadata" src="${src}">Your browser cannot play this video. <a href="${src}">Download it</a>.</video></div>`
    case "image":
    case "gif":
      return html`<div class="lesson-media"><img src="${src}" alt=""></div>`
    case "pdf":
      return html`<p class="lesson-media"><a href="${src}">Open the lesson's PDF${asset.fileName === null ? "" : ` (${asset.fileName})`}</a></p>`
  }
}

const questionItem = (question: LessonQuestion, ownLearner: string): Html =>
  html`<li class="review">
<blockquote>${question.text}</blockquote>
<p class="muted">${question.name ?? "A learner"}${question.learnerId === ownLearner ? " (you)" : ""}${question.hidden ? " · only you see this" : ""}</p>
${question.answer === null ? html`<p class="muted">Not answered yet.</p>` : html`<p><strong>Answer:</strong> ${question.answer}</p>`}
</li>`

/** What the lesson page says above the lesson after a post. */
export type LessonNotice = "finished" | "finished-course" | "asked" | undefined

const noticeText: Record<Exclude<LessonNotice, undefined>, string> = {
  finished: "Lesson marked finished.",
  "finished-course": "Lesson marked finished: you finished every lesson of the course. Well done!",
  asked: "Your question was sent. You get an email when it is answered."
}

/** `GET /learn/<learner>/<lesson>`: the lesson, its media, finishing it, its questions and asking one. */
export const lessonPage = (
  base: string,
  links: LearnerLinks,
  view: LessonView,
  asset: MediaAsset | null,
  shown: {
    readonly notice?: LessonNotice
    readonly errors?: FieldErrors
    readonly typed?: Typed
    readonly status?: number
  } = {}
) => {
  const { course, lesson } = view
  const { errors = {}, typed = { name: course.learner.name ?? "" } } = shown
  const finished = course.completed.has(lesson.id)
  return page({
    base,
    title: `${lesson.title} · ${course.product.fields.title}`,
    ...(shown.status === undefined ? {} : { status: shown.status }),
    body: html`<nav aria-label="Course"><p><a href="${links.course}">${course.product.fields.title}</a>${lesson.module === null ? "" : ` · ${lesson.module}`}</p></nav>
${shown.notice === undefined ? html`` : html`<p class="notice" role="status">${noticeText[shown.notice]}</p>`}
<article class="card" aria-labelledby="title">
<h1 id="title">${lesson.title}</h1>
${mediaBlock(links, view, asset)}
<div class="lesson-body">${lessonHtml(view.text)}</div>
${
  finished
    ? html`<p class="done" role="status">You finished this lesson.</p>`
    : html`<form method="post" action="${links.complete(lesson.id)}"><div class="actions"><button class="primary" type="submit">Mark as finished</button></div></form>`
}
<nav class="lesson-nav" aria-label="Lessons">
${view.previous === undefined ? html`<span></span>` : html`<a href="${links.lesson(view.previous.id)}" rel="prev">Previous: ${view.previous.title}</a>`}
${view.next === undefined ? html`<a href="${links.course}">All lessons</a>` : html`<a href="${links.lesson(view.next.id)}" rel="next">Next: ${view.next.title}</a>`}
</nav>
</article>
<section class="card" id="questions" aria-labelledby="questions-title">
<h2 id="questions-title">Questions</h2>
${
  view.questions.length === 0
    ? html`<p class="muted">No questions on this lesson yet.</p>`
    : html`<ul class="parts">${view.questions.map((q) => questionItem(q, course.learner.id))}</ul>`
}
<form method="post" action="${links.ask(lesson.id)}">
<label for="text">Your question</label>
<textarea id="text" name="text" rows="4" required maxlength="${String(LESSON_QUESTION_MAX)}" aria-describedby="text-help${errors.text === undefined ? "" : " text-error"}"${errors.text === undefined ? html`` : html` aria-invalid="true"`}>${typed.text ?? ""}</textarea>
<p class="muted" id="text-help">The seller answers by email; the question and answer show here for the course's learners.</p>
${fieldError(errors, "text")}
<label for="name">Your name as shown (optional)</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="${String(LESSON_QUESTION_NAME_MAX)}" value="${typed.name ?? ""}"${invalidAttrs(errors, "name")}>
${fieldError(errors, "name")}
${honeypot}
<div class="actions"><button type="submit">Ask</button></div>
</form>
</section>`
  })
}
