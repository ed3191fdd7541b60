/** The statuses a tool call can fail with: the seven tool failure statuses and the HTTP face's rate limit. */
export type ToolFailureStatus =
  | "invalid"
  | "forbidden"
  | "not-found"
  | "conflict"
  | "missing-workspace"
  | "auth-expired"
  | "unreachable"
  | "rate-limited"

/** One bad field of an `invalid` call. */
export interface ToolFieldError {
  /** Dotted path of the field (`media.0.url`); empty for the whole input. */
  readonly path: string
  /** What is wrong with the field. */
  readonly message: string
}

/** What a `ToolCallError` is made from. */
export interface ToolCallErrorFields {
  readonly tool: string
  readonly status: ToolFailureStatus
  readonly message: string
  readonly errors?: ReadonlyArray<ToolFieldError> | undefined
  readonly httpStatus?: number | undefined
}

/**
 * A tool call the server refused or the tool could not fulfil, the same over REST and MCP. Check `status`:
 * `invalid` (fix the input, see `errors`), `auth-expired` (get a new token), `rate-limited` (the retry budget ran
 * out), and the others to tell the user.
 */
export class ToolCallError extends Error {
  override readonly name = "ToolCallError"
  /** The tool that was called. */
  readonly tool: string
  readonly status: ToolFailureStatus
  /** With `invalid`: one entry per bad field (empty otherwise). */
  readonly errors: ReadonlyArray<ToolFieldError>
  /**
   * The HTTP code of the answer that carried the failure, when it was not a 200: always over REST; over MCP only
   * for refusals of the HTTP layer (401, 403, 413, 429), as MCP answers tool failures with 200.
   */
  readonly httpStatus: number | undefined

  constructor(fields: ToolCallErrorFields) {
    super(fields.message)
    this.tool = fields.tool
    this.status = fields.status
    this.errors = fields.errors ?? []
    this.httpStatus = fields.httpStatus
  }
}
