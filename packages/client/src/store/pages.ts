// Paged lists: the store API answers `{ data, has_more, next_cursor }` and takes the cursor back as `starting_after`.
import type { CallOptions } from "../http/request.js"
import type { PageShape } from "./types.js"

/**
 * A paged list, fetched lazily: iterate it for every row (`for await (const sale of store.sales.list())`), or
 * `.pages()` for page by page, or `.page()` for the one page the query asks for. Each step is one request, sent when
 * the iteration gets there; breaking out of the loop sends no more.
 */
export interface Paged<Row, Page extends PageShape> extends AsyncIterable<Row> {
  /** The one page the query asks for (`starting_after`, `limit`), as the server answers it. */
  readonly page: () => Promise<Page>
  /** Every page from the query's start, following `next_cursor` while `has_more`. */
  readonly pages: () => AsyncIterable<Page>
}

/** Makes a `Paged` from the call that fetches one page after a cursor (undefined: the query's own start). */
export const paged = <Page extends PageShape>(
  fetchPage: (startingAfter: string | undefined, options?: CallOptions) => Promise<Page>,
  options?: CallOptions
): Paged<Page["data"][number], Page> => {
  const pages = async function* (): AsyncGenerator<Page> {
    let cursor: string | undefined
    for (;;) {
      const page = await fetchPage(cursor, options)
      yield page
      // An empty page repeats the cursor it was asked with: stop there rather than ask for it again.
      if (!page.has_more || page.data.length === 0 || page.next_cursor === cursor) return
      cursor = page.next_cursor
    }
  }
  return {
    page: () => fetchPage(undefined, options),
    pages,
    [Symbol.asyncIterator]: async function* () {
      for await (const page of pages()) yield* page.data
    }
  }
}
