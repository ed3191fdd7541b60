import type { RatingSummary } from "@svc/core/store"
import { html } from "../browser/index.js"

/** Stars as text for the eye (`★★★★☆`), with the number for a screen reader. */
export const stars = (rating: number) =>
  html`<span aria-label="${String(rating)} out of 5">${"★".repeat(rating)}${"☆".repeat(5 - rating)}</span>`

/** A product's average rating, when any review carries one: "4.5 out of 5 · 2 ratings". */
export const ratingLine = (rating: RatingSummary) =>
  rating.average === null
    ? html``
    : html`<p class="muted">${stars(Math.round(rating.average))} ${rating.average.toFixed(1)} out of 5 · ${String(rating.count)} rating${rating.count === 1 ? "" : "s"}</p>`
