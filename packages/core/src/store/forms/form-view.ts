import type { Option } from "effect"
import type { StoreTag } from "../email-list/ports.js"
import type { DecisionEmailStatus, Form, FormResponse } from "./schema.js"

/** A form as the seller sees it: itself, the tags its decisions add (in its order), and its response counts. */
export interface FormView {
  readonly form: Form
  readonly acceptTags: ReadonlyArray<StoreTag>
  readonly declineTags: ReadonlyArray<StoreTag>
  /** Responses so far. */
  readonly responses: number
  /** Applications waiting for a decision (review forms). */
  readonly pending: number
}

/** The free access an accepted applicant was given with the form's product. */
export type DecisionAccess = "added" | "already_has_access" | "rejected"

/** What accepting or declining an application did. */
export interface Decision {
  /** false when the application was already decided this way (nothing else happened then). */
  readonly changed: boolean
  readonly email: DecisionEmailStatus
  /** The application as it now is. */
  readonly application: FormResponse
  /** Tags the person did not have before. */
  readonly tagsAdded: ReadonlyArray<StoreTag>
  /** On an accept that changed, of a form with a product: the access given. */
  readonly access: Option.Option<DecisionAccess>
}

/** Which application a decision is about: its response id, or the newest application from an email. */
export interface DecisionTarget {
  readonly responseId?: string | undefined
  readonly email?: string | undefined
  /** false: no decision email (`email: "skipped"`); the product's access email is skipped too. */
  readonly sendEmail?: boolean | undefined
}
