// docs/embedding.md: calling an embedded svc (any of the examples/embed-*.ts servers) through the typed client.
import { createToolClient } from "@svc/client"

const svc = createToolClient({ baseUrl: "http://127.0.0.1:3000", token: "svc_pat_…", transport: "rest" })
const { note } = await svc.svc_create_note({ markdown: "# Hello from my backend" })
console.log(note.id)
