import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import {
  contactAdditionApiAnswer,
  contactApiAnswer,
  contactPageJson,
  contactRemovalApiAnswer,
  contactTaggedFeedJson,
  emailSignupsFeedJson,
  readContactListQuery,
  readTagListQuery,
  StoreEmailList,
  StoreFeeds,
  tagPageJson,
  tagRemovalApiAnswer,
  pagedAnswer
} from "@svc/core/store"
import { StoreApi } from "@svc/core/store-api"
import { Effect } from "effect"
import { withCaller } from "./caller.js"
import { answer } from "./errors.js"

/** The email list routes of the store API: contacts, their tags, the store's tags and the Contact Tagged feed. */
export const EmailListHandlersLive = HttpApiBuilder.group(StoreApi, "emailList", (handlers) =>
  Effect.gen(function* () {
    const list = yield* StoreEmailList
    const feeds = yield* StoreFeeds
    return handlers
      .handle("list", ({ urlParams }) =>
        withCaller("emailList.list", (caller) =>
          answer(pagedAnswer(readContactListQuery(urlParams), (query) => list.listPage(caller, query), contactPageJson))
        )
      )
      .handle("add", ({ payload }) =>
        withCaller("emailList.add", (caller) => answer(Effect.map(list.add(caller, payload), contactAdditionApiAnswer)))
      )
      .handle("removeTags", ({ payload }) =>
        withCaller("emailList.removeTags", (caller) =>
          answer(Effect.map(list.removeTags(caller, payload), tagRemovalApiAnswer))
        )
      )
      .handle("tagged", ({ urlParams }) =>
        withCaller("emailList.tagged", (caller) =>
          Effect.map(feeds.contactTagged(caller, urlParams.tag), contactTaggedFeedJson)
        )
      )
      .handle("signups", () =>
        withCaller("emailList.signups", (caller) => Effect.map(feeds.emailSignups(caller), emailSignupsFeedJson))
      )
      .handle("get", ({ path }) =>
        withCaller("emailList.get", (caller) => answer(Effect.map(list.get(caller, path.email), contactApiAnswer)))
      )
      .handle("update", ({ path, payload }) =>
        withCaller("emailList.update", (caller) => {
          const { add_tags, remove_tags, ...changes } = payload
          return answer(
            Effect.map(
              list.update(caller, path.email, { ...changes, addTags: add_tags, removeTags: remove_tags }),
              contactApiAnswer
            )
          )
        })
      )
      .handle("remove", ({ path }) =>
        withCaller("emailList.remove", (caller) =>
          answer(Effect.map(list.remove(caller, path.email), contactRemovalApiAnswer))
        )
      )
      .handle("tags", ({ urlParams }) =>
        withCaller("emailList.tags", (caller) =>
          answer(pagedAnswer(readTagListQuery(urlParams), (query) => list.listTags(caller, query), tagPageJson))
        )
      )
  })
)
