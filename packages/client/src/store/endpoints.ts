// How one row of the client's endpoint table becomes a method: the route and method name the generated operation,
// whose types give the method's input and answer; at run time the route's `{name}`s are filled from the input, and
// the rest of the input is the query (GET, DELETE) or the JSON body (POST, PUT, PATCH).
import { type CallOptions, type JsonRequest, type Requester, SvcConnectionError } from "../http/request.js"
import { storeApiError } from "./errors.js"
import { type Paged, paged } from "./pages.js"
import {
  type Answer,
  type Input,
  type Method,
  type Operation,
  type Page,
  type PageShape,
  type Route,
  type Row,
  STORE_API_PREFIX
} from "./types.js"

/** The input of a method that takes none. */
export type NoInput = Readonly<Record<string, never>>

type InputOf<O> = keyof Input<O> extends never ? NoInput : Input<O>

/** A method's arguments: `(input, options?)`, the input optional when every field of it is. */
export type Args<O> =
  {} extends InputOf<O> ? [input?: InputOf<O>, options?: CallOptions] : [input: InputOf<O>, options?: CallOptions]

/** The store API method of one route and HTTP method, e.g. `Endpoint<"/products/{id}", "patch">`. */
export type Endpoint<R extends Route, M extends Method> = (
  ...args: Args<Operation<R, M>>
) => Promise<Answer<Operation<R, M>>>

/** A paged list method of one GET route: the same input, answered by a lazily fetched `Paged` of the rows. */
export type ListEndpoint<R extends Route> = (
  ...args: Args<Operation<R, "get">>
) => Paged<Row<Operation<R, "get">>, Page<Operation<R, "get">>>

type LooseInput = Readonly<Record<string, unknown>>
type LooseCall = (input?: LooseInput, options?: CallOptions) => Promise<unknown>

const wireMethod = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE" } as const

// Query values go on the wire as text: numbers and booleans the way the server reads them (`limit=5`, `has_access=true`).
const queryString = (fields: LooseInput): string => {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue
    query.append(name, typeof value === "object" ? JSON.stringify(value) : String(value))
  }
  const text = query.toString()
  return text === "" ? "" : `?${text}`
}

// The Promise face trusts the server's rows as the contract types them and checks only the page's frame.
const isPage = <P extends PageShape>(value: unknown): value is P =>
  typeof value === "object" &&
  value !== null &&
  "data" in value &&
  Array.isArray(value.data) &&
  "has_more" in value &&
  typeof value.has_more === "boolean" &&
  "next_cursor" in value &&
  typeof value.next_cursor === "string"

/** Builds the request of one call: path parameters into the route, the rest into the query or the body. */
export const buildRequest = (method: Method, route: Route, input: LooseInput = {}): JsonRequest => {
  const rest: Record<string, unknown> = { ...input }
  const path = route.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest[name]
    if (typeof value !== "string" || value === "") throw new TypeError(`${route} needs ${name} (a non-empty string)`)
    delete rest[name]
    return encodeURIComponent(value)
  })
  if (method === "get" || method === "delete") {
    return { method: wireMethod[method], path: `${STORE_API_PREFIX}${path}${queryString(rest)}` }
  }
  // A POST with nothing to send (publish, an empty roll-secret) goes without a body, as the server documents.
  const body = Object.keys(rest).length === 0 ? undefined : rest
  return { method: wireMethod[method], path: `${STORE_API_PREFIX}${path}`, ...(body === undefined ? {} : { body }) }
}

/** The function the table's rows are made with, bound to one client's requester. */
export const endpointsOf = (send: Requester) => {
  const callLoose =
    (method: Method, route: Route): LooseCall =>
    async (input, options) => {
      const answer = await send(buildRequest(method, route, input), options)
      if (answer.status < 200 || answer.status > 299) throw storeApiError(answer.status, answer.body, answer.headers)
      if (typeof answer.body !== "object" || answer.body === null) {
        throw new SvcConnectionError(`${route} answered ${answer.status} without a JSON object`)
      }
      return answer.body
    }

  /** One endpoint: `call("post", "/products")`. */
  const call = <M extends Method, R extends Route>(method: M, route: R): Endpoint<R, M> =>
    callLoose(method, route) as Endpoint<R, M>

  /**
   * A paged GET endpoint: `list("/sales")`. It always sends a `limit` (the server's default of 25 unless given), which
   * also makes `/products` answer pages rather than its short summaries.
   */
  const list = <R extends Route>(route: R): ListEndpoint<R> => {
    const one = callLoose("get", route)
    type ListPage = Page<Operation<R, "get">>
    const listLoose = (input: LooseInput = {}, options?: CallOptions) =>
      paged(async (startingAfter, callOptions) => {
        const page = await one(
          {
            ...input,
            limit: input.limit ?? 25,
            ...(startingAfter === undefined ? {} : { starting_after: startingAfter })
          },
          callOptions
        )
        if (!isPage<ListPage>(page)) throw new SvcConnectionError(`${route} answered something that is not a page`)
        return page
      }, options)
    return listLoose as ListEndpoint<R>
  }

  return { call, list }
}
