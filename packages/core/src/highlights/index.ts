/** Highlights and captures: the `Highlights` service, its repository and toolset. */
export {
  type CaptureRow,
  type ClipFilter,
  type HighlightRow,
  HighlightsRepo,
  type NewCapture,
  type NewHighlight
} from "./ports.js"
export { type ClipPage, type ClipSearchInput, Highlights } from "./service.js"
export { highlightTools } from "./tools.js"
