/** The media tools over REST (`POST /v1/tools/<name>`), as the media tests of `svc serve` call them. */

/** A media tool's JSON answer, as far as the tests read it. */
export interface MediaToolAnswer {
  readonly ok: boolean
  readonly message: string
  readonly errors: ReadonlyArray<{ readonly path: string }>
  readonly media: { readonly id: string; readonly [field: string]: unknown }
  readonly upload: {
    readonly uploadId: string
    readonly mediaId: string
    readonly url: string
    readonly method: string
    readonly parts: ReadonlyArray<{ readonly partNumber: number; readonly url: string }>
    readonly partBytes: number
    readonly partCount: number
  }
}

/** Calls tools on the server at `baseUrl()` with the key `token()` (both read at each call): status and answer. */
export const mediaToolCaller =
  (baseUrl: () => string, token: () => string) =>
  async (name: string, args: object): Promise<{ status: number; body: MediaToolAnswer }> => {
    const response = await fetch(`${baseUrl()}/v1/tools/${name}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token()}`, "Content-Type": "application/json" },
      body: JSON.stringify(args)
    })
    return { status: response.status, body: (await response.json()) as MediaToolAnswer }
  }
