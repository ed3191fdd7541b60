import { CUSTOM_AI_DESCRIPTION_MAX, CUSTOM_AI_INSTRUCTIONS_MAX, CUSTOM_AI_NAME_MAX } from "./schema.js"

/**
 * The guide `svc_get_custom_ai_builder_guide` answers: written for an agent that builds an assistant for a creator,
 * so it names the tools in the order they are used and the limits they enforce.
 */
export const BUILDER_GUIDE = `# Building a Custom AI

A Custom AI is an assistant that answers from its own knowledge (texts, notes, web pages and files you give it),
following its instructions. A creator uses it privately, or sells it in their store.

## 1. Agree on the job first
Before creating anything, settle with the creator, in one or two sentences each:
- **Who asks** (their students, clients, their own team) and **what they ask** (three real example questions).
- **What a good answer looks like**: length, tone, format (steps, a checklist, a short paragraph).
- **What it must not do**: topics it declines, promises it never makes, when it sends people to a human.

## 2. Create it
\`svc_create_custom_ai\` with:
- \`name\` (1-${CUSTOM_AI_NAME_MAX} characters): what buyers will see, e.g. "Sourdough Coach".
- \`description\` (up to ${CUSTOM_AI_DESCRIPTION_MAX}): what it is for, in the asker's words.
- \`instructions\` (up to ${CUSTOM_AI_INSTRUCTIONS_MAX}): see section 3.
- \`kind\`: \`assistant\` (a chat) or \`course\` (sold as a course with the AI turned off).
The workspace's first Custom AI becomes its default: \`svc_ask_custom_ai\` without \`customAIId\` asks it. Change
the default with \`svc_update_custom_ai\` (\`isDefault: true\`).

## 3. Write the instructions
Good instructions are short and concrete. A template:

    You are <name>, <creator>'s assistant for <audience>.
    Answer questions about <topic> using the knowledge provided. Quote the source title when you rely on it.
    Style: <two or three rules: length, tone, format>.
    If the knowledge does not cover a question, say so plainly and suggest <where to go instead>.
    Never <the things it must not do>.

Avoid long lists of rules that contradict each other, and avoid asking it to browse or run code: it answers from
its knowledge and the chat only.

## 4. Give it knowledge
\`svc_manage_custom_ai_sources\` with \`action: "add"\`:
- **text**: paste the creator's own material (FAQ answers, course transcripts, methods).
- **note**: a workspace note by id; it stays in sync when the note changes.
- **url**: a public web page; it is fetched once and can be refreshed. An address that cannot be fetched is kept
  and shown as failed with the reason, so check the status in the answer.
- **file**: Markdown, plain text or PDF.
Prefer the creator's own words over generic material: the assistant is only as specific as its knowledge. Split
very different topics into separate sources with clear titles; titles are quoted in answers. Check what was
indexed with \`svc_read_custom_ai_knowledge\`, and whether a question finds the right passage with
\`svc_search_custom_ai_knowledge\`.

## 5. Test it
Ask the three example questions from step 1 with \`svc_ask_custom_ai\`, and one question it should decline.
- When a language model is configured, each message costs 1 credit (2 with \`mode: "max"\`); the answer shows what
  was charged and the balance left. Without one, the assistant quotes its best-matching knowledge, for free, and
  says that no language model is configured.
- A long answer comes back as \`status: "running"\` with a \`chatId\`: call \`svc_get_custom_ai_answer\` a few seconds
  later.
- Send the same \`chatId\` to continue a conversation.
When an answer is wrong, fix the knowledge first (a missing or vague source), then the instructions.

## 6. Sell it (optional)
- \`svc_save_custom_ai_product\` with the \`customAIId\` makes a draft product (price, description,
  \`included_credits\` for buyers); its answer lists what is missing before it can go live.
- \`svc_publish_custom_ai_product\` puts it live once the checklist is complete.
- \`svc_organize_custom_ai_knowledge\` tidies the sources of a sold assistant.
A Custom AI that a product sells cannot be deleted until the product is.
`
