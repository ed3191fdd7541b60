import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { listQueryFields, PageOf, strict } from "../../shared/list-wire.js"
import { EmailSequenceRow } from "./schema.js"

/** The email sequences on the store API: read here, made and changed through `svc_manage_store_emails`. */
export const EmailSequencesApiGroup = HttpApiGroup.make("emailSequences").add(
  HttpApiEndpoint.get("list", "/email-sequences")
    .setUrlParams(Schema.Struct(listQueryFields).annotations(strict))
    .addSuccess(PageOf(EmailSequenceRow))
    .annotate(OpenApi.Summary, "List email sequences")
    .annotate(
      OpenApi.Description,
      "The store's email sequences, newest first: each with starts_when (adding a start tag to a subscribed contact, or a purchase of a start product, enrols them once), its steps (delay and subject) and how many people are in it, done, or stopped."
    )
)
