export { MediaRoutes } from "./routes.js"
