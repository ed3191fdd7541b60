/** Boards, notes, tables, tags, connections and the trash: services, repositories, schemas and toolsets. */
export { boardTools } from "./board-tools.js"
export { type BoardPage, Boards, type PlacementInput } from "./boards.js"
export { Connections } from "./connections.js"
export { noteTools } from "./note-tools.js"
export { type NotePatch, Notes } from "./notes.js"
export {
  type BoardFirstPage,
  BoardsRepo,
  type CanvasPlacement,
  ConnectionsRepo,
  TablesRepo,
  TagsRepo,
  TrashRepo
} from "./ports.js"
export {
  Board,
  Cells,
  CellValue,
  ColumnType,
  ItemConnection,
  type ItemState,
  PlacedItem,
  type StoredRow,
  Table,
  TableColumn,
  TableRow,
  Tag,
  TitleField
} from "./schema.js"
export { tableTools } from "./table-tools.js"
export { type ColumnInput, type TableChange, Tables } from "./tables.js"
export { tagTools } from "./tag-tools.js"
export { Tags } from "./tags.js"
export { Trash, TrashPurgeLive } from "./trash.js"
