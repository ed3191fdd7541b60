import { webhooksSection } from "./webhooks-openapi.js"

const DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"
const BAD_REQUEST = "#/components/schemas/StoreBadRequest"

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

// Every 400 of the store API is `{ ok: false, error: "bad_request", message }`: the face rewrites the
// platform's own decode failure (see adapters http/store-api/responses.ts), so the file must not offer
// the platform's `HttpApiDecodeError` body as a possible answer.
const badRequestOnly = (schema: unknown): unknown => {
  if (!isObject(schema)) return schema
  if (schema.$ref === DECODE_ERROR) return { $ref: BAD_REQUEST }
  if (!Array.isArray(schema.anyOf)) return schema
  const options = schema.anyOf.filter((option) => !(isObject(option) && option.$ref === DECODE_ERROR))
  const hasBadRequest = options.some((option) => isObject(option) && option.$ref === BAD_REQUEST)
  const kept = hasBadRequest ? options : [...options, { $ref: BAD_REQUEST }]
  return kept.length === 1 ? kept[0] : { ...schema, anyOf: kept }
}

// Whether anything but the schema itself points at `#/components/schemas/<name>`.
const referenced = (document: Json, schemas: Json, name: string) => {
  const { [name]: _self, ...others } = schemas
  const rest = { ...document, components: { ...(document.components as Json), schemas: others } }
  return JSON.stringify(rest).includes(`"#/components/schemas/${name}"`)
}

// The platform writes `security: []` on each operation, which in OpenAPI means "no credential needed"
// and overrides the document's bearer requirement; every store route needs the key, so drop it.
const withDocumentSecurity = (operation: unknown): unknown => {
  if (!isObject(operation) || !Array.isArray(operation.security) || operation.security.length > 0) return operation
  const { security: _none, ...rest } = operation
  return rest
}

/**
 * Post-processes the store API's generated OpenAPI document: each 400 answer documents the body the
 * API really sends (`StoreBadRequest`), every operation keeps the document's bearer requirement, and the
 * platform's unused decode-error schemas are dropped; and the `webhooks` section documents each event a webhook
 * receives.
 */
export const storeOpenApiTransform = (document: Json): Json => {
  const paths = isObject(document.paths) ? document.paths : {}
  const nextPaths: Json = {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) {
      nextPaths[path] = item
      continue
    }
    const nextItem: Json = {}
    for (const [method, found] of Object.entries(item)) {
      const operation = withDocumentSecurity(found)
      const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : undefined
      const bad = responses?.["400"]
      if (!isObject(operation) || responses === undefined || !isObject(bad) || !isObject(bad.content)) {
        nextItem[method] = operation
        continue
      }
      const content: Json = {}
      for (const [type, media] of Object.entries(bad.content)) {
        content[type] = isObject(media) ? { ...media, schema: badRequestOnly(media.schema) } : media
      }
      const description =
        "StoreBadRequest: a query or path parameter is wrong (e.g. limit outside 1 to 100), or the body is not a JSON object"
      nextItem[method] = { ...operation, responses: { ...responses, "400": { ...bad, description, content } } }
    }
    nextPaths[path] = nextItem
  }
  const components = isObject(document.components) ? document.components : {}
  const schemas: Json = isObject(components.schemas) ? { ...components.schemas } : {}
  const eventSchemas: Parameters<typeof webhooksSection>[0] = {}
  const webhooks = webhooksSection(eventSchemas)
  for (const [name, schema] of Object.entries(eventSchemas)) {
    // Shared schemas (`Int`) come out the same both ways; a name the API uses for something else would be a clash.
    if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) {
      throw new Error(`the webhook schema ${name} clashes with a store API schema of that name`)
    }
    schemas[name] = schema
  }
  const next: Json = { ...document, paths: nextPaths, webhooks, components: { ...components, schemas } }
  // The decode error brings its own helper schemas; drop each once nothing points at it any more.
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey"]) {
    if (name in schemas && !referenced(next, schemas, name)) delete schemas[name]
  }
  return next
}
