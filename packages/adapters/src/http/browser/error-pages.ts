import { answerDefects } from "../defects.js"
import { html } from "./html.js"
import { page } from "./layout.js"

/**
 * The error pages of one face, under `base`: what went wrong and what to do next, each closed by `hint` when the
 * face has advice for every error (the OAuth pages send the person back to the application that asked).
 */
export const errorPages = (base: string, hint?: string) => {
  /** A request that cannot go on. */
  const error = (title: string, message: string, status = 400) =>
    page({
      base,
      title,
      status,
      body: html`<section class="card" aria-labelledby="title">
<h1 id="title">${title}</h1>
<p role="alert">${message}</p>${
        hint === undefined
          ? ""
          : html`
<p class="muted">${hint}</p>`
      }
</section>`
    })

  return {
    error,
    /** A form posted from another site (see `sameOrigin`): 403. */
    crossSite: (message = "This form was sent from another site.") => error("Request refused", message, 403),
    /** A form whose token was used already, is too old or belongs to another session (see `spendFormToken`): 403. */
    formExpired: (next: string) => error("This form has expired", next, 403),
    /** Answers a defect of a page's handler with a 500 page and a request id to quote (see `answerDefects`). */
    answerDefects: answerDefects((requestId) =>
      error("Something went wrong", `The server failed (request id ${requestId}). Try again.`, 500)
    )
  }
}
