import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { contactTaggedFeedJson, emailSignupsFeedJson, StoreEmailList, StoreFeeds } from "@svc/core/store"
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
        withCaller("emailList.list", (caller) => answer(list.listPage(caller, urlParams)))
      )
      .handle("add", ({ payload }) => withCaller("emailList.add", (caller) => answer(list.add(caller, payload))))
      .handle("removeTags", ({ payload }) =>
        withCaller("emailList.removeTags", (caller) => answer(list.removeTags(caller, payload)))
      )
      .handle("tagged", ({ urlParams }) =>
        withCaller("emailList.tagged", (caller) =>
          Effect.map(feeds.contactTagged(caller, urlParams.tag), contactTaggedFeedJson)
        )
      )
      .handle("signups", () =>
        withCaller("emailList.signups", (caller) => Effect.map(feeds.emailSignups(caller), emailSignupsFeedJson))
      )
      .handle("get", ({ path }) => withCaller("emailList.get", (caller) => answer(list.get(caller, path.email))))
      .handle("update", ({ path, payload }) =>
        withCaller("emailList.update", (caller) => answer(list.update(caller, path.email, payload)))
      )
      .handle("remove", ({ path }) =>
        withCaller("emailList.remove", (caller) => answer(list.remove(caller, path.email)))
      )
      .handle("tags", ({ urlParams }) =>
        withCaller("emailList.tags", (caller) => answer(list.listTags(caller, urlParams)))
      )
  })
)
