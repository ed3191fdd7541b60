import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import type { PaidQuestion } from "@svc/core/store"
import { StorePaidQuestions } from "@svc/core/store"
import { Effect, type Layer, Option } from "effect"
import { errorPages, html, page, utcMinute } from "../browser/index.js"
import { PublicUrl } from "../config.js"
import { notePage } from "../public-pages/pages.js"

/** The buyer's page of a paid question: what they asked, and the seller's answer once given. */
const answerPage = (base: string, question: PaidQuestion) =>
  page({
    base,
    title: "Your question",
    body: html`<section class="card" aria-labelledby="title">
<p class="muted">${question.productTitle}</p>
<h1 id="title">Your question</h1>
<p class="asked">${question.text}</p>
<h2>Answer</h2>
${
  question.answer === null
    ? html`<p role="status">Not answered yet. The answer is due by ${utcMinute(question.answerDueAt)} UTC; we will email you when it is here.</p>`
    : html`<p class="asked">${question.answer}</p>
<p class="muted">Answered ${utcMinute(question.answeredAt)} UTC.</p>`
}
</section>`
  })

/**
 * `GET /q/<question id>?k=<key>`: a paid question's page for its buyer, the `answer_url` of the question. The key is
 * the buyer's secret from their email; without it the page is not found, as for a question that does not exist.
 */
export const PaidQuestionRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | PublicUrl | StorePaidQuestions
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const url = yield* PublicUrl
    const questions = yield* StorePaidQuestions
    const errors = errorPages(url.base)
    const show = (request: HttpServerRequest) =>
      Effect.gen(function* () {
        const params = yield* HttpLayerRouter.params
        const key = new URL(request.url, url.base).searchParams.get("k") ?? ""
        const found = yield* questions.forBuyer(params.question ?? "", key)
        return Option.match(found, {
          onNone: () =>
            notePage({
              base: url.base,
              title: "Not found",
              message: "There is no such question. Open the link from your email as it is.",
              status: 404
            }),
          onSome: (question) => answerPage(url.base, question)
        })
      })
    yield* router.addAll([
      HttpLayerRouter.route("GET", "/q/:question", (request) => errors.answerDefects(show(request)))
    ])
  })
)
