import { Context, type Effect, type Option } from "effect"
import type { Page, PageRequest } from "../../shared/paging.js"
import type { CreatedRange } from "../../shared/paging.js"
import type { ApplicationStatus, Form, FormResponse } from "./schema.js"

/** A form with its response counts, as lists show it. */
export interface FormWithCounts extends Form {
  readonly responses: number
  readonly pending: number
}

/** Stored forms and their responses. */
export class FormsRepo extends Context.Tag("svc/store/FormsRepo")<
  FormsRepo,
  {
    readonly insert: (form: Form) => Effect.Effect<void>
    readonly update: (form: Form) => Effect.Effect<void>
    /** Deletes the form with its responses; false when there was none. */
    readonly remove: (workspaceId: string, formId: string) => Effect.Effect<boolean>
    readonly find: (workspaceId: string, formId: string) => Effect.Effect<Option.Option<Form>>
    readonly count: (workspaceId: string) => Effect.Effect<number>
    /** A form's responses, and those of them pending a decision. */
    readonly counts: (formId: string) => Effect.Effect<{ readonly responses: number; readonly pending: number }>
    readonly listPage: (
      workspaceId: string,
      range: CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<FormWithCounts>>
    readonly insertResponse: (response: FormResponse) => Effect.Effect<void>
    /** One response of the form, locked until the transaction ends, so two decisions on it never interleave. */
    readonly lockResponse: (formId: string, responseId: string) => Effect.Effect<Option.Option<FormResponse>>
    /** The newest response of the form from this email, locked like `lockResponse`. */
    readonly lockNewestByEmail: (formId: string, email: string) => Effect.Effect<Option.Option<FormResponse>>
    readonly decide: (responseId: string, status: ApplicationStatus, at: Date) => Effect.Effect<void>
    readonly applications: (
      formId: string,
      status: ApplicationStatus | undefined,
      range: CreatedRange,
      page: PageRequest
    ) => Effect.Effect<Page<FormResponse>>
  }
>() {}
