/**
 * Every message the service sends, built in one place: pure functions from what the message is about to its kind,
 * subject and plain-text body. Senders pass the result to `Mailer.send` with the workspace and the recipient.
 */

/** A message ready for `Mailer.send`, but for whom and for which workspace. */
export interface MailContent {
  readonly kind: string
  readonly subject: string
  readonly text: string
}

/** Why a person is sent their access email. */
export type AccessOccasion = "bought" | "added" | "again"

const accessOpening: Record<AccessOccasion, (title: string) => string> = {
  bought: (title) => `Thank you for your purchase. You now have access to ${title}.`,
  added: (title) => `You have been given access to ${title}.`,
  again: (title) => `Here is your access to ${title} again.`
}

/** The store's access email (a sale, a free grant, an import, a resend): what the person now has. */
export const accessEmail = (access: {
  readonly occasion: AccessOccasion
  readonly productTitle: string
  /** A bundle's products, by title; empty for a single product. */
  readonly included: ReadonlyArray<string>
  /** The product's content links, in the seller's order. */
  readonly links: ReadonlyArray<{ readonly title: string; readonly url: string }>
  /** The person's course pages (the product's, or a bundle's courses), each link theirs alone. */
  readonly courses?: ReadonlyArray<{ readonly title: string; readonly url: string }>
}): MailContent => ({
  kind: "store.access",
  subject: `Your access to ${access.productTitle}`,
  // One `title: url` line per content link: they are what the person now has.
  text: [
    accessOpening[access.occasion](access.productTitle),
    ...(access.included.length === 0 ? [] : [`It includes: ${access.included.join(", ")}.`]),
    ...(access.courses ?? []).map((course) => `Start ${course.title} (this link is yours alone): ${course.url}`),
    ...access.links.map((link) => `${link.title}: ${link.url}`)
  ].join("\n")
})

/** To the owner: a webhook that did nothing but fail for `failingDays` days was turned off. */
export const webhookDisabledEmail = (webhook: {
  readonly webhookId: string
  readonly url: string
  readonly failingDays: number
}): MailContent => ({
  kind: "webhook.disabled",
  subject: `Webhook turned off: ${webhook.url}`,
  text: [
    `Deliveries to ${webhook.url} (webhook ${webhook.webhookId}) have done nothing but fail for ${webhook.failingDays} days, so the webhook was turned off.`,
    `The delivery log (GET /store-app/v1/webhooks/${webhook.webhookId}/deliveries) shows what the receiver answered.`,
    `Deliveries waiting for it are kept: once the receiver works, turn the webhook back on with ` +
      `PATCH /store-app/v1/webhooks/${webhook.webhookId} {"enabled": true} and they resume.`
  ].join("\n\n")
})

/** What an application decision may add: the seller's own words. */
interface Decision {
  readonly storeName: string
  readonly formTitle: string
  /** A note from the seller, put in as written. */
  readonly note?: string | undefined
}

const withNote = (lines: ReadonlyArray<string>, note: string | undefined) =>
  [...lines, ...(note === undefined || note.trim() === "" ? [] : [note.trim()])].join("\n\n")

/** To an applicant: their application on a review-mode form was accepted. */
export const applicationAcceptedEmail = (decision: Decision): MailContent => ({
  kind: "form.application_accepted",
  subject: `Your application to ${decision.storeName} was accepted`,
  text: withNote(
    [`Good news: your application (${decision.formTitle}) to ${decision.storeName} was accepted.`],
    decision.note
  )
})

/** To an applicant: their application on a review-mode form was declined. */
export const applicationDeclinedEmail = (decision: Decision): MailContent => ({
  kind: "form.application_declined",
  subject: `Your application to ${decision.storeName}`,
  text: withNote(
    [
      `Thank you for applying (${decision.formTitle}) to ${decision.storeName}.`,
      "After reviewing it, they decided not to accept your application this time."
    ],
    decision.note
  )
})

/** Double opt-in: asks the person to confirm before they join the store's email list. */
export const confirmSubscriptionEmail = (signup: {
  readonly storeName: string
  /** The link that confirms, signed so it works without signing in. */
  readonly confirmUrl: string
}): MailContent => ({
  kind: "list.confirm",
  subject: `Confirm your subscription to ${signup.storeName}`,
  text: [
    `Someone (hopefully you) asked to join the email list of ${signup.storeName} with this address.`,
    `To confirm, open this link:\n${signup.confirmUrl}`,
    "If it was not you, ignore this email: you will not be added."
  ].join("\n\n")
})

/** The kind of a sequence step, the list mail the service sends today. */
export const SEQUENCE_STEP_KIND = "sequence.step"

/** A step of an email sequence, as written by the seller; it goes out as list mail (`toList: true`). */
export const sequenceStepEmail = (step: { readonly subject: string; readonly body: string }): MailContent => ({
  kind: SEQUENCE_STEP_KIND,
  subject: step.subject,
  text: step.body
})

/**
 * The text of list mail as it goes out: the sender's text, then the footer with the signed unsubscribe link, so the
 * text always ends with the link.
 */
export const listMailText = (text: string, unsubscribeUrl: string): string =>
  `${text.trimEnd()}\n\n-- \nYou get this email because you are on this store's email list.\nUnsubscribe: ${unsubscribeUrl}`

/** To the buyer of a paid question: it reached the seller, and where the answer will be. */
export const questionReceivedEmail = (question: {
  readonly storeName: string
  readonly text: string
  readonly answerDueAt: Date
  readonly answerUrl: string
}): MailContent => ({
  kind: "store.question_received",
  subject: `Your question to ${question.storeName}`,
  text: [
    `Thank you: ${question.storeName} has your question and will answer it by ${question.answerDueAt.toUTCString()}.`,
    `Your question:\n${question.text}`,
    `The answer will be on your page, which only this link opens: ${question.answerUrl}`,
    "We will email you when it is there."
  ].join("\n\n")
})

/** To the buyer: the seller answered their paid question (or changed the answer). */
export const questionAnsweredEmail = (question: {
  readonly storeName: string
  readonly question: string
  readonly answer: string
  readonly answerUrl: string
  readonly changed: boolean
}): MailContent => ({
  kind: "store.question_answered",
  subject: question.changed
    ? `${question.storeName} updated the answer to your question`
    : `${question.storeName} answered your question`,
  text: [
    `Your question:\n${question.question}`,
    `${question.changed ? "The updated answer" : "The answer"}:\n${question.answer}`,
    `Your page with both: ${question.answerUrl}`
  ].join("\n\n")
})

/** To the store's support email: a buyer paid for a question, and by when to answer it. */
export const newQuestionEmail = (question: {
  readonly questionId: string
  readonly productTitle: string
  readonly buyer: string
  readonly text: string
  readonly answerDueAt: Date
  readonly test: boolean
}): MailContent => ({
  kind: "store.question_new",
  subject: `${question.test ? "[Test] " : ""}New paid question: ${question.productTitle}`,
  text: [
    `${question.buyer} paid for ${question.productTitle} and asked:`,
    question.text,
    `Answer by ${question.answerDueAt.toUTCString()}: POST /store-app/v1/paid-questions/${question.questionId}/answer with {"answer": "…"}, or with svc_manage_sales (action answer_question).`
  ].join("\n\n")
})

/** To a buyer a week after their first sale of a product: how did they find it? Their link opens the review page. */
export const reviewRequestEmail = (request: {
  readonly storeName: string
  readonly productTitle: string
  readonly name: string | null
  readonly reviewUrl: string
}): MailContent => ({
  kind: "store.review_request",
  subject: `How is ${request.productTitle}?`,
  text: [
    request.name === null ? "Hello," : `Hello ${request.name},`,
    `You have had ${request.productTitle} from ${request.storeName} for a week now. Would you tell them what you think of it? A rating and a few words take a minute, and help others decide.`,
    `Leave your review here (the link is yours alone and works once): ${request.reviewUrl}`,
    "You choose on that page whether your words may be quoted on the product's page."
  ].join("\n\n")
})

/** To the store's support email: a learner asked a question on a lesson of a course. */
export const newLessonQuestionEmail = (question: {
  readonly questionId: string
  readonly productTitle: string
  readonly lessonTitle: string
  readonly asker: string
  readonly text: string
}): MailContent => ({
  kind: "store.lesson_question_new",
  subject: `New question on ${question.lessonTitle} (${question.productTitle})`,
  text: [
    `${question.asker} asked on the lesson ${question.lessonTitle} of ${question.productTitle}:`,
    question.text,
    `Answer it with svc_manage_lesson_questions (action answer, questionId ${question.questionId}) or POST /store-app/v1/lesson-questions/${question.questionId}/answer with {"answer": "…"}; hide it from the lesson's page with action hide.`
  ].join("\n\n")
})

/** To a learner: the seller answered their question on a lesson (or changed the answer). */
export const lessonAnsweredEmail = (question: {
  readonly storeName: string
  readonly lessonTitle: string
  readonly question: string
  readonly answer: string
  /** The lesson's page for this learner; null when their course link is gone. */
  readonly lessonUrl: string | null
  readonly changed: boolean
}): MailContent => ({
  kind: "store.lesson_question_answered",
  subject: question.changed
    ? `${question.storeName} updated the answer to your question on ${question.lessonTitle}`
    : `${question.storeName} answered your question on ${question.lessonTitle}`,
  text: [
    `Your question:\n${question.question}`,
    `${question.changed ? "The updated answer" : "The answer"}:\n${question.answer}`,
    ...(question.lessonUrl === null ? [] : [`The lesson, with both: ${question.lessonUrl}`])
  ].join("\n\n")
})

/** To a new affiliate (added, accepted, or let in at once): the link they share and what it earns. */
export const affiliateWelcomeEmail = (welcome: {
  readonly storeName: string
  readonly productTitle: string
  readonly link: string
  readonly earns: string
  readonly cookieDays: number
}): MailContent => ({
  kind: "store.affiliate_welcome",
  subject: `You are an affiliate of ${welcome.productTitle}`,
  text: [
    `${welcome.storeName} made you an affiliate of ${welcome.productTitle}.`,
    `Your link: ${welcome.link}`,
    `Each sale through it earns you ${welcome.earns}, and so does each renewal of a membership it brought. A buyer who comes back within ${welcome.cookieDays} days of opening your link counts as yours too. A refunded sale earns nothing.`
  ].join("\n\n")
})
