/** Media files of a workspace: uploads checked from their bytes, kept in a blob store. */
export { MEDIA_MAX_BYTES, MEDIA_TYPES, type MediaAsset } from "./schema.js"
