import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import { describe, expect, it } from "@effect/vitest"
import { RateLimited } from "@svc/core/limits"
import {
  AuthExpired,
  BadListRequest,
  Conflict,
  type DomainFailure,
  FieldProblem,
  type FailureOf,
  type FailureTable,
  type FailureTag,
  Forbidden,
  InvalidInput,
  invalid,
  MissingWorkspace,
  NotFound,
  renamePaths,
  StoreAccessDenied,
  Unreachable
} from "@svc/core/shared"
import { httpStatusOf, toolFailure, toolFailures } from "@svc/core/tools"
import type { Schema } from "effect"
import { domainRefusal, stepRefusals } from "../../src/http/ai-steps/caller.js"
import { graphqlError, graphqlFailures } from "../../src/http/graphql/errors.js"
import { storeErrors, toStoreError } from "../../src/http/store-api/errors.js"

// One failure of each tag; the type makes this list fail to compile too when `DomainFailure` gains a member.
const samples: { readonly [K in FailureTag]: FailureOf<K> } = {
  InvalidInput: new InvalidInput({
    message: "name: is required",
    errors: [new FieldProblem({ path: "name", message: "is required" })]
  }),
  NotFound: new NotFound({ message: "no product prod_1 in this store" }),
  Conflict: new Conflict({ message: "a product with that slug exists" }),
  Forbidden: new Forbidden({ message: "this credential has no access to store tools", reason: "access" }),
  AuthExpired: new AuthExpired({ message: "the token has expired" }),
  Unreachable: new Unreachable({ message: "the model did not answer" }),
  MissingWorkspace: new MissingWorkspace({ message: "you have no default workspace" }),
  StoreAccessDenied: new StoreAccessDenied({ message: "the key's Store access is Read", code: "api_key_access" }),
  BadListRequest: new BadListRequest({ message: "limit must be 1 to 100" }),
  RateLimited: new RateLimited({ message: "too many sales this minute", retryAfterSeconds: 7 })
}
const failures: ReadonlyArray<DomainFailure> = Object.values(samples)
const tags = Object.keys(samples).sort()

describe("the failure table of each face", () => {
  it("has one entry for every domain failure and no other", () => {
    for (const table of [toolFailures, storeErrors, graphqlFailures, stepRefusals]) {
      expect(Object.keys(table).sort()).toEqual(tags)
    }
  })

  it("does not compile when it leaves a failure out", () => {
    const answer = () => "answered"
    // @ts-expect-error RateLimited has no entry: a table must answer every member of DomainFailure
    const incomplete: FailureTable<string> = {
      InvalidInput: answer,
      NotFound: answer,
      Conflict: answer,
      Forbidden: answer,
      AuthExpired: answer,
      Unreachable: answer,
      MissingWorkspace: answer,
      StoreAccessDenied: answer,
      BadListRequest: answer
    }
    expect(Object.keys(incomplete)).not.toContain("RateLimited")
  })

  it("tools (MCP and REST): the tool failure status and its REST code", () => {
    expect(failures.map((failure) => [failure._tag, toolFailure(failure).status])).toEqual([
      ["InvalidInput", "invalid"],
      ["NotFound", "not-found"],
      ["Conflict", "conflict"],
      ["Forbidden", "forbidden"],
      ["AuthExpired", "auth-expired"],
      ["Unreachable", "unreachable"],
      ["MissingWorkspace", "missing-workspace"],
      ["StoreAccessDenied", "forbidden"],
      ["BadListRequest", "invalid"],
      ["RateLimited", "conflict"]
    ])
    expect(failures.map((failure) => httpStatusOf[toolFailure(failure).status])).toEqual([
      422, 404, 409, 403, 401, 502, 404, 403, 422, 409
    ])
    expect(toolFailure(samples.InvalidInput)).toEqual({
      ok: false,
      status: "invalid",
      message: "name: is required",
      errors: [{ path: "name", message: "is required" }]
    })
    expect(toolFailure(samples.RateLimited).message).toBe("too many sales this minute (retry after 7 s)")
  })

  it("store API: the spec's HTTP code and error code", () => {
    const wire = (failure: DomainFailure) => {
      const answer = toStoreError(failure)
      const declared = answer.constructor as unknown as Schema.Schema.Any
      return [failure._tag, HttpApiSchema.getStatus(declared.ast, 0), answer.error]
    }
    expect(failures.map(wire)).toEqual([
      ["InvalidInput", 422, "invalid_field"],
      ["NotFound", 404, "not_found"],
      ["Conflict", 409, "conflict"],
      ["Forbidden", 403, "forbidden"],
      ["AuthExpired", 401, "unauthorized"],
      ["Unreachable", 500, "internal"],
      ["MissingWorkspace", 404, "not_found"],
      ["StoreAccessDenied", 403, "forbidden"],
      ["BadListRequest", 400, "bad_request"],
      ["RateLimited", 429, "rate_limited"]
    ])
    const plan = toStoreError(new StoreAccessDenied({ message: "needs the Starter plan", code: "plan" }))
    expect([plan.error, plan.message]).toEqual(["plan_required", "needs the Starter plan"])
  })

  it("GraphQL: the error's code, status and HTTP answer", () => {
    const wire = (failure: DomainFailure) => {
      const { code, status, http } = graphqlError(failure, "Bearer").extensions as {
        readonly code: string
        readonly status?: string
        readonly http?: { readonly status: number }
      }
      return [failure._tag, code, status, http?.status]
    }
    expect(failures.map(wire)).toEqual([
      ["InvalidInput", "BAD_USER_INPUT", "invalid", undefined],
      ["NotFound", "NOT_FOUND", "not-found", undefined],
      ["Conflict", "CONFLICT", "conflict", undefined],
      ["Forbidden", "FORBIDDEN", "forbidden", undefined],
      ["AuthExpired", "UNAUTHENTICATED", "auth-expired", 401],
      ["Unreachable", "UNREACHABLE", "unreachable", undefined],
      ["MissingWorkspace", "MISSING_WORKSPACE", "missing-workspace", undefined],
      ["StoreAccessDenied", "FORBIDDEN", "forbidden", undefined],
      ["BadListRequest", "BAD_USER_INPUT", "invalid", undefined],
      ["RateLimited", "RATE_LIMITED", undefined, 429]
    ])
  })

  it("/ai steps: the store API's HTTP and error codes, and 502 unreachable", () => {
    expect(
      failures.map((failure) => [failure._tag, domainRefusal(failure).status, domainRefusal(failure).error])
    ).toEqual([
      ["InvalidInput", 422, "invalid_field"],
      ["NotFound", 404, "not_found"],
      ["Conflict", 409, "conflict"],
      ["Forbidden", 403, "forbidden"],
      ["AuthExpired", 401, "unauthorized"],
      ["Unreachable", 502, "unreachable"],
      ["MissingWorkspace", 404, "not_found"],
      ["StoreAccessDenied", 403, "forbidden"],
      ["BadListRequest", 400, "bad_request"],
      ["RateLimited", 429, "rate_limited"]
    ])
  })

  it("says a failure's next step in each face's own words, in its message and its field problem", () => {
    const missing = new NotFound({ message: "no product prod_1 in this store", next: { _tag: "ListProducts" } })
    expect(toStoreError(missing).message).toBe("no product prod_1 in this store; GET /products lists them")
    expect(toolFailure(missing).message).toBe(
      "no product prod_1 in this store; svc_get_custom_ai_product and svc_get_bundle answer product ids"
    )
    expect(domainRefusal(missing).message).toBe(toolFailure(missing).message)

    const cohort = new NotFound({ message: "no cohort coh_1", next: { _tag: "ListCohorts", productId: "prod_1" } })
    expect(toStoreError(cohort).message).toBe("no cohort coh_1; GET /products/prod_1/cohorts lists them")
    expect(toolFailure(cohort).message).toBe(
      "no cohort coh_1; svc_manage_cohorts with action list and productId prod_1 lists them"
    )

    const unknown = invalid("custom_ai_id", "no Custom AI cai_1 in this store", { _tag: "ListCustomAis" })
    const said = "no Custom AI cai_1 in this store; GET /custom-ais lists them"
    const answer = toStoreError(unknown)
    expect([answer.message, answer.errors]).toEqual([said, [{ path: "custom_ai_id", message: said }]])
    expect(toolFailure(unknown).errors).toEqual([
      { path: "custom_ai_id", message: "no Custom AI cai_1 in this store; svc_list_custom_ai lists them" }
    ])
    // GraphQL reads the store as the store API does, so it names the API's routes.
    expect(graphqlError(missing, "Bearer").message).toBe(toStoreError(missing).message)
    // A failure without a next step keeps its message as it is.
    expect(toStoreError(samples.NotFound).message).toBe("no product prod_1 in this store")
  })

  it("keeps the next step when a face renames the fields", () => {
    const renamed = renamePaths(
      invalid("type", "unknown event type", { _tag: "ListEventTypes" }),
      (path) => `x.${path}`
    )
    expect(toolFailure(renamed).errors).toEqual([
      { path: "x.type", message: "unknown event type; GET /store-app/v1/webhook-events lists them" }
    ])
  })
})
