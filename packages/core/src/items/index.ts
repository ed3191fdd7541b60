/** Items every area places on boards (notes, saved posts, links): schemas and the item and search repositories. */
export { type ItemFilter, ItemsRepo, type NewItem, type StoredItem } from "./ports.js"
export { ItemSummary, ItemType, Note, Platform } from "./schema.js"
export { type ItemHit, SearchRepo } from "./search-ports.js"
