import type { CheckoutErrors, CheckoutOffer, PriceOption, ProductReview } from "@svc/core/store"
import {
  discountRefusalMessage,
  priceAfterDiscount,
  QUESTION_MAX,
  STORE_CURRENCY,
  SUCCEEDING_TEST_CARD
} from "@svc/core/store"
import { hidden, html, page } from "../browser/index.js"
import { fieldError, honeypot, invalidAttrs, personFields, type Typed } from "../public-pages/pages.js"
import { ratingLine, stars } from "../public-pages/rating.js"

/** The landing link's attribution, carried through the form as hidden fields. */
export const ATTRIBUTION_FIELDS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_content",
  "utm_term",
  "fbclid",
  "referrer",
  // The affiliate code of a `?via=` link (or its cookie), once the checkout found it good for the product.
  "via"
] as const

/** An amount in cents as the pages write it: `$12.50`-style with the store currency's code. */
export const money = (cents: number) =>
  cents === 0 ? "Free" : `${(cents / 100).toFixed(2)} ${STORE_CURRENCY.toUpperCase()}`

const optionLabel = (option: PriceOption) => {
  const amount = money(option.priceCents)
  switch (option.choice) {
    case "one-time":
      return option.priceCents === 0 ? "Free" : `${amount}, paid once`
    case "plan":
      return `${option.parts ?? 0} monthly payments of ${amount}`
    case "monthly":
      return `${amount} a month`
    case "yearly":
      return `${amount} a year`
  }
}

const trialLine = (option: PriceOption) =>
  option.trialDays === null ? "" : ` — first ${option.trialDays} days free, then charged`

/** One card field: its label, the input and its error. */
const cardField = (
  errors: CheckoutErrors,
  name: keyof CheckoutErrors,
  label: string,
  input: { readonly inputmode: string; readonly autocomplete: string; readonly placeholder: string },
  value: string
) =>
  html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="text" inputmode="${input.inputmode}" autocomplete="${input.autocomplete}" placeholder="${input.placeholder}" value="${value}"${invalidAttrs(errors, name)}>
${fieldError(errors, name)}`

/** The newest approved reviews, with who gave them. */
const reviewList = (reviews: ReadonlyArray<ProductReview>) =>
  reviews.length === 0
    ? html``
    : html`<h2>What people say</h2>
${reviews.map(
  (review) => html`<figure class="review">
<blockquote class="asked">${review.text}</blockquote>
<figcaption class="muted">${review.rating === null ? html`` : html`${stars(review.rating)} · `}${review.name ?? "A buyer"}${review.source === null ? html`` : html`, on ${review.source}`}</figcaption>
</figure>`
)}`

/** What the checkout page shows again after a refused post. */
export interface CheckoutShown {
  readonly errors?: CheckoutErrors
  readonly typed?: Typed
  readonly status?: number
  /** A line above the form: why the card was declined. */
  readonly alert?: string
}

/**
 * The checkout page of a product: its prices, a discount code, the buyer, and the card (test mode says so); with
 * Stripe connected, no card: the buyer pays on Stripe's page.
 */
export const checkoutPage = (
  options: CheckoutShown & {
    readonly base: string
    readonly offer: CheckoutOffer
    readonly csrf: string
    /** The attribution of the landing link, kept in hidden fields. */
    readonly attribution: Readonly<Record<string, string>>
  }
) => {
  const { offer, errors = {}, typed = {} } = options
  const product = offer.product
  const at = `${options.base}/c/${product.id}`
  const code = offer.code?.status === "applied" ? offer.code.code : null
  const codeError = offer.code?.status === "refused" ? offer.code : null
  const chosen = typed.choice ?? offer.options[0]?.choice ?? ""
  const free = product.fields.price_cents === 0
  const waitlistOnly = offer.waitlistMode || offer.soldOut
  const carried = ATTRIBUTION_FIELDS.map((name) =>
    options.attribution[name] === undefined ? html`` : hidden(name, options.attribution[name] ?? "")
  )
  const compareAt = product.fields.compare_at_cents
  const priceLines = offer.options.map((option) => {
    const after = code === null ? option.priceCents : priceAfterDiscount(option.priceCents, code)
    const label = optionLabel(option)
    const shown =
      after === option.priceCents
        ? html`${label}`
        : html`<s>${label}</s>
            <strong>${optionLabel({ ...option, priceCents: after })}</strong>`
    const input =
      offer.options.length === 1
        ? hidden("choice", option.choice)
        : html`<input
            type="radio"
            name="choice"
            value="${option.choice}"
            ${option.choice === chosen ? html` checked` : html``}
          />`
    return html`<label class="choice"
      >${input} <span>${shown}${trialLine(option)}</span></label
    >`
  })
  const body = html`<section class="card" aria-labelledby="title">
    <p class="muted">
      <a href="${options.base}/s/${offer.store.handle}">${offer.store.name}</a>
    </p>
    <h1 id="title">${product.fields.title}</h1>
    ${product.fields.tagline === null ? html`` : html`<p class="muted">${product.fields.tagline}</p>`}
    ${ratingLine(offer.reviews.rating)}
    ${
      offer.test && !free && !waitlistOnly
        ? html`<p class="test-mode" role="note">
            <strong>Test mode.</strong> No money moves. Pay with the test card
            ${SUCCEEDING_TEST_CARD}, any future expiry date and any 3 digits.
          </p>`
        : html``
    }
    ${options.alert === undefined ? html`` : html`<p class="alert" role="alert">${options.alert}</p>`}
    ${
      waitlistOnly
        ? html`<p role="status">
            ${offer.waitlistMode ? "Not on sale yet: leave your email and you will hear when it opens." : offer.waitlist ? "Sold out: leave your email to join the waitlist." : "Sold out."}
          </p>`
        : html`<p class="price">
              ${compareAt === null ? html`` : html`<s aria-label="was ${money(compareAt)}">${money(compareAt)}</s> `}${money(offer.options[0]?.priceCents ?? 0)}
            </p>
            ${offer.left === null ? html`` : html`<p class="muted">${offer.left} left</p>`}`
    }
    ${
      offer.soldOut && !offer.waitlist && !offer.waitlistMode
        ? html``
        : html`${
            waitlistOnly || free
              ? html``
              : html`<form method="get" action="${at}">
                    ${carried}
                    <label for="code">Discount code</label>
                    <div class="row">
                      <div>
                        <input
                          id="code"
                          name="code"
                          type="text"
                          autocomplete="off"
                          maxlength="24"
                          value="${code?.code ?? codeError?.typed ?? ""}"
                          ${invalidAttrs(errors, "code")}${codeError === null ? html`` : html` aria-invalid="true" aria-describedby="code-error"`}
                        />
                      </div>
                      <button class="secondary" type="submit">Apply</button>
                    </div>
                    ${codeError === null ? fieldError(errors, "code") : html`<p class="error" id="code-error" role="alert">${discountRefusalMessage[codeError.refusal]}</p>`}
                    ${code === null ? html`` : html`<p class="muted" role="status">Code ${code.code} applied.</p>`}
                  </form>`
          }
            <form method="post" action="${at}">
              ${hidden("csrf", options.csrf)} ${hidden("attempt", offer.attempt)} ${carried}
              ${code === null ? html`` : hidden("code", code.code)}
              ${
                waitlistOnly
                  ? html``
                  : html`<fieldset${invalidAttrs(errors, "choice")}><legend>How to pay</legend>${priceLines}</fieldset>
${fieldError(errors, "choice")}`
              }
              ${personFields(errors, typed)}
              ${
                product.kind === "question" && !waitlistOnly
                  ? html`<label for="question">Your question</label>
<p class="muted" id="question-help">Answered within ${String(product.fields.answer_within_days ?? 1)} day${product.fields.answer_within_days === 1 ? "" : "s"}; you get an email with a link to the answer.</p>
<textarea id="question" name="question" rows="6" required maxlength="${String(QUESTION_MAX)}"${errors.question === undefined ? html` aria-describedby="question-help"` : html` aria-invalid="true" aria-describedby="question-help question-error"`}>${typed.question ?? ""}</textarea>
${fieldError(errors, "question")}`
                  : html``
              }
              ${
                offer.hosted && !waitlistOnly && !free
                  ? html`<p class="muted">You pay on Stripe's secure page next, then come back here.</p>`
                  : html``
              }
              ${
                waitlistOnly || free || offer.hosted
                  ? html``
                  : html`<fieldset>
                      <legend>Card</legend>
                      ${cardField(errors, "card_number", "Card number", { inputmode: "numeric", autocomplete: "cc-number", placeholder: "" }, typed.card_number ?? "")}
                      <div class="row">
                        <div>${cardField(errors, "card_expiry", "Expiry (MM/YY)", { inputmode: "text", autocomplete: "cc-exp", placeholder: "MM/YY" }, typed.card_expiry ?? "")}</div>
                        <div>${cardField(errors, "card_cvc", "Security code", { inputmode: "numeric", autocomplete: "cc-csc", placeholder: "" }, "")}</div>
                      </div>
                    </fieldset>`
              }
              ${honeypot}
              <div class="actions">
                <button class="primary" type="submit">
                  ${waitlistOnly ? "Join the waitlist" : free ? "Get it free" : offer.hosted ? "Continue to payment" : "Pay"}
                </button>
              </div>
            </form>`
    }
    ${reviewList(offer.reviews.reviews)}
  </section>`
  return page({
    base: options.base,
    title: product.fields.title,
    ...(options.status === undefined ? {} : { status: options.status }),
    body
  })
}

/**
 * The test processor's authentication step: what a bank's confirmation page would be, with the checkout's fields
 * carried so confirming sends the same order again.
 */
export const authenticationPage = (options: {
  readonly base: string
  readonly productId: string
  readonly csrf: string
  readonly fields: URLSearchParams
  readonly message: string
}) => {
  const carried = [...options.fields.entries()]
    .filter(([name]) => name !== "csrf" && name !== "authenticated")
    .map(([name, value]) => hidden(name, value))
  const at = `${options.base}/c/${options.productId}`
  return page({
    base: options.base,
    title: "Confirm the payment",
    status: 402,
    body: html`<section class="card" aria-labelledby="title">
      <p class="test-mode" role="note">
        <strong>Test mode.</strong> This stands in for your bank's confirmation
        page.
      </p>
      <h1 id="title">Confirm the payment</h1>
      <p role="status">${options.message}</p>
      <form method="post" action="${at}">
        ${hidden("csrf", options.csrf)} ${carried}
        <div class="actions">
          <button
            class="primary"
            type="submit"
            name="authenticated"
            value="yes"
          >
            Confirm
          </button>
          <button
            class="secondary"
            type="submit"
            name="authenticated"
            value="no"
          >
            Do not confirm
          </button>
        </div>
      </form>
    </section>`
  })
}
