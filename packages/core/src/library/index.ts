/** Saving links, posts and highlights to the library: the `LibrarySaves` service, its ports, schemas and toolset. */
export {
  type ItemPlacement,
  type LibraryItem,
  LibraryRepo,
  LinkPreview,
  type LockedBoard,
  type NewLibraryItem,
  type PagePreview,
  type SavedItemType,
  type SaveOutcome
} from "./ports.js"
export {
  BoardId,
  ItemTitle,
  MediaCard,
  MediaKind,
  PreviewSource,
  SavedHighlight,
  SavedLink,
  SavedOnBoard,
  SavedPost,
  SavedText,
  WebUrl
} from "./schema.js"
export { LibrarySaves, type LinkInput, type MediaInput, type SourceFields, type SourceInput } from "./service.js"
export { libraryTools } from "./tools.js"
