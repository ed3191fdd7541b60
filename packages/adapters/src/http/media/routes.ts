import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import type { HttpServerRequest } from "@effect/platform/HttpServerRequest"
import { Plan } from "@svc/core/accounts"
import { allows, type Authenticator, type Principal } from "@svc/core/auth"
import type { ScopeNotGranted } from "@svc/core/auth"
import {
  MEDIA_MAX_BYTES,
  MULTIPART_PART_BYTES,
  type MediaAsset,
  MediaLibrary,
  type MediaRefused,
  MediaRecord,
  mediaRecord
} from "@svc/core/media"
import type { DomainError } from "@svc/core/shared"
import type { MultipartError } from "@effect/platform/Multipart"
import { httpStatusOf, toolFailure, toolGroups, ToolServer } from "@svc/core/tools"
import { type HttpServerResponse, setHeader } from "@effect/platform/HttpServerResponse"
import { Clock, Effect, type Layer, Option, Schema, Stream } from "effect"
import { MediaUploadSigner } from "../../media/upload-signer.js"
import { makeToolGate } from "../auth.js"
import { declaresTooLarge, jsonText } from "../body.js"
import type { PublicUrl } from "../config.js"
import { answerDefects, internalErrorMessage } from "../defects.js"
import { type FaceRequest, platformFaceRequest, replyResponse } from "../exchange.js"
import { rateLimitedReply, unauthorizedReply } from "../rest/endpoint.js"

const SCHEDULING = toolGroups.Scheduling
const MB = 1024 * 1024

// The multipart framing around one file part: boundaries, part headers and a workspace_id field.
const FRAMING_ALLOWANCE = 64 * 1024

const encodeMedia = Schema.encodeSync(MediaRecord)

const json = (status: number, body: object, headers?: Readonly<Record<string, string>>) =>
  jsonText(status, JSON.stringify(body), headers)

const statusWord = (code: number) => (code === 403 ? "forbidden" : code === 404 ? "not-found" : "invalid")

const refusal = (code: number, message: string, headers?: Readonly<Record<string, string>>) =>
  json(code, { ok: false, status: statusWord(code), message }, headers)

/**
 * A refusal closes the connection: it may come before the body was read (a file too large, a URL refused), and a
 * client that still sends the rest could otherwise send it into the next request's place.
 */
const closingRefusals = <E, R>(effect: Effect.Effect<HttpServerResponse, E, R>) =>
  Effect.map(effect, (response) => (response.status >= 400 ? setHeader(response, "connection", "close") : response))

const mediaAnswer = (asset: MediaAsset) => json(200, { ok: true, media: encodeMedia(mediaRecord(asset)) })

const withDefectsAnswered = answerDefects((requestId) =>
  json(500, { ok: false, error: "internal", message: internalErrorMessage(requestId) })
)

const NO_FILE =
  "send the file as one multipart/form-data file part (curl -F file=@photo.jpg), with workspace_id before it if you give one"

/** The request body ended early or broke (a client gone mid-upload). */
class MediaBodyBroken extends Schema.TaggedError<MediaBodyBroken>()("MediaBodyBroken", {}) {}

/** Everything an upload can be refused for, on any of these routes. */
type UploadRefusal = MediaRefused | DomainError | MultipartError | ScopeNotGranted | MediaBodyBroken

/**
 * `POST /v1/media` (one file part of `multipart/form-data`, optional `workspace_id` field before it) and the upload
 * URLs the filesystem store hands out (`PUT /v1/media/uploads/:id`, `PUT /v1/media/uploads/:id/parts/:n`). The
 * file streams into `MediaLibrary`, which refuses it past 100 MB or of a type not allowed while it arrives: the
 * server never holds a file whole. Refusals are the REST face's: `{ ok: false, status, message }`, 413 for a file
 * too large, 415 for a type not allowed, 400 for a body that is not one file part, the tool failure table else.
 */
export const MediaRoutes: Layer.Layer<
  never,
  never,
  HttpLayerRouter.HttpRouter | ToolServer | Authenticator | PublicUrl | MediaLibrary | MediaUploadSigner
> = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const gate = yield* makeToolGate
    const tools = yield* ToolServer
    const media = yield* MediaLibrary
    const signer = yield* MediaUploadSigner

    const refused = (face: FaceRequest) => (error: UploadRefusal) => {
      switch (error._tag) {
        case "MediaTooLarge":
          return Effect.succeed(refusal(413, error.message))
        case "MediaTypeRefused":
          return Effect.succeed(refusal(415, error.message))
        case "MultipartError":
          return Effect.succeed(refusal(400, `the multipart body is malformed (${error.reason}); ${NO_FILE}`))
        case "MediaBodyBroken":
          return Effect.succeed(refusal(400, "the body broke off before its end; send it again"))
        case "AuthExpired":
          return Effect.succeed(replyResponse(unauthorizedReply(error, gate.challengeFor(face))))
        case "ScopeNotGranted":
          return Effect.succeed(refusal(403, error.message, { "www-authenticate": gate.scopeRefusedChallenge(error) }))
        default: {
          const body = toolFailure(error)
          return Effect.succeed(json(httpStatusOf[body.status], body))
        }
      }
    }

    /** The same checks as a call of a Scheduling write tool: access, plan, then the per-minute limit. */
    const admitted = (principal: Principal) => {
      if (!allows(principal.access, SCHEDULING.part, "edit")) {
        return Effect.succeed(
          Option.some(
            refusal(
              403,
              principal.credential.kind === "oauth"
                ? 'uploading media changes data; authorize again with scope "read write"'
                : `uploading media needs edit access to ${SCHEDULING.part}; use a key with edit access`
            )
          )
        )
      }
      if (Plan.literals.indexOf(principal.plan) < Plan.literals.indexOf(SCHEDULING.plan)) {
        return Effect.succeed(Option.some(refusal(403, "Scheduling tools need the Starter plan or above")))
      }
      return tools.admit(principal).pipe(
        Effect.as(Option.none()),
        Effect.catchTag("RateLimited", (limited) =>
          Effect.succeed(Option.some(replyResponse(rateLimitedReply(limited.message, limited.retryAfterSeconds))))
        )
      )
    }

    const upload = (request: HttpServerRequest) => {
      const face = platformFaceRequest(request)
      if (declaresTooLarge(face.header("content-length"), MEDIA_MAX_BYTES + FRAMING_ALLOWANCE)) {
        return Effect.succeed(refusal(413, `a media file is at most ${MEDIA_MAX_BYTES / MB} MB`))
      }
      const stored = (principal: Principal) => {
        let workspaceId = face.query("workspace_id")
        return request.multipartStream.pipe(
          Stream.mapEffect((part) => {
            if (part._tag === "Field") {
              if (part.key === "workspace_id" && part.value.trim() !== "") workspaceId = part.value.trim()
              return Effect.succeed(Option.none<MediaAsset>())
            }
            return tools.workspaceOf(principal, workspaceId).pipe(
              Effect.flatMap((workspace) =>
                media.upload(workspace.id, { fileName: part.name === "" ? null : part.name, body: part.content })
              ),
              Effect.map(Option.some)
            )
          }),
          Stream.filterMap((found) => found),
          // The first file is the upload: nothing after it is read.
          Stream.runHead,
          Effect.map(Option.match({ onNone: () => refusal(400, NO_FILE), onSome: mediaAnswer }))
        )
      }
      return gate.authenticate(face).pipe(
        Effect.flatMap((principal) =>
          Effect.flatMap(admitted(principal), (refusedFirst) => {
            if (Option.isSome(refusedFirst)) return Effect.succeed(refusedFirst.value)
            if (!/^multipart\/form-data/i.test(face.header("content-type") ?? "")) {
              return Effect.succeed(refusal(400, NO_FILE))
            }
            return stored(principal)
          })
        ),
        Effect.catchAll(refused(face))
      )
    }

    /** The refusal of a URL that was not signed for this upload, part and expiry, or that expired; none when valid. */
    const checkGrant = (face: FaceRequest, uploadId: string, partNumber: number) =>
      Effect.gen(function* () {
        const expires = Number(face.query("expires"))
        const signature = face.query("signature") ?? ""
        if (!Number.isSafeInteger(expires) || signature === "") {
          return Option.some(refusal(403, "this upload URL is incomplete; use the URL you were given, whole"))
        }
        if (!(yield* signer.verify({ uploadId, partNumber, expires }, signature))) {
          return Option.some(refusal(403, "this upload URL's signature does not match; use the URL you were given"))
        }
        if (expires * 1000 <= (yield* Clock.currentTimeMillis)) {
          return Option.some(
            refusal(403, "this upload URL expired; prepare another (svc_prepare_scheduling_media_upload)")
          )
        }
        return Option.none()
      })

    const bodyOf = (request: HttpServerRequest) => Stream.mapError(request.stream, () => new MediaBodyBroken())

    /** A PUT to a signed URL: the grant checked, then `receive` answering the reply. */
    const signedPut = (
      request: HttpServerRequest,
      uploadId: string,
      partNumber: number,
      receive: (body: Stream.Stream<Uint8Array, MediaBodyBroken>) => Effect.Effect<HttpServerResponse, UploadRefusal>
    ) => {
      const face = platformFaceRequest(request)
      const maxBytes = partNumber === 0 ? MEDIA_MAX_BYTES : MULTIPART_PART_BYTES
      return closingRefusals(
        Effect.flatMap(checkGrant(face, uploadId, partNumber), (refusedFirst) => {
          if (Option.isSome(refusedFirst)) return Effect.succeed(refusedFirst.value)
          // A declared length over the limit is refused before any byte is read (the URL stays unused).
          if (declaresTooLarge(face.header("content-length"), maxBytes)) {
            return Effect.succeed(
              refusal(413, `${partNumber === 0 ? "a media file" : "a part"} is at most ${maxBytes / MB} MB`)
            )
          }
          return receive(bodyOf(request)).pipe(Effect.catchAll(refused(face)))
        })
      )
    }

    yield* router.addAll([
      HttpLayerRouter.route("POST", "/v1/media", (request) => withDefectsAnswered(closingRefusals(upload(request)))),
      HttpLayerRouter.route("PUT", "/v1/media/uploads/:uploadId", (request) =>
        withDefectsAnswered(
          Effect.flatMap(HttpLayerRouter.params, ({ uploadId = "" }) =>
            signedPut(request, uploadId, 0, (body) => Effect.map(media.receive(uploadId, body), mediaAnswer))
          )
        )
      ),
      HttpLayerRouter.route("PUT", "/v1/media/uploads/:uploadId/parts/:partNumber", (request) =>
        withDefectsAnswered(
          Effect.flatMap(HttpLayerRouter.params, ({ uploadId = "", partNumber = "" }) => {
            const part = /^[1-9]\d{0,4}$/.test(partNumber) ? Number(partNumber) : 0
            if (part === 0) return Effect.succeed(refusal(404, "no such part; part numbers start at 1"))
            return signedPut(request, uploadId, part, (body) =>
              Effect.map(media.receivePart(uploadId, part, body), (stored) =>
                json(200, { ok: true, partNumber: part, bytes: stored.bytes }, { etag: `"${stored.sha256}"` })
              )
            )
          })
        )
      )
    ])
  })
)
