import foundation from "./0001_foundation.js"
import library from "./0002_library.js"

/** Every migration, by `<id>_<name>`, in the order they apply. */
export const migrations = {
  "0001_foundation": foundation,
  "0002_library": library
}
