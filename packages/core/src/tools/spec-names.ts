import type { ToolGroup } from "./groups.js"

/** One tool name of the service description: its group and whether it changes data. */
export interface SpecTool {
  readonly name: string
  readonly group: ToolGroup
  readonly write: boolean
  /** For a deprecated name: the tool that replaces it, which serves it as an alias. */
  readonly aliasOf?: string
}

const group = (name: ToolGroup, read: ReadonlyArray<string>, write: ReadonlyArray<string>): Array<SpecTool> => [
  ...read.map((tool) => ({ name: tool, group: name, write: false })),
  ...write.map((tool) => ({ name: tool, group: name, write: true }))
]

const aliases: Record<string, string> = {
  svc_read_card: "svc_read_social_post",
  svc_create_sticky_note: "svc_create_note",
  svc_create_scheduling_draft: "svc_schedule_post"
}

/**
 * The 113 tool names of the service description in its published order (110 tools and 3 deprecated aliases).
 * Data only: it reports coverage (`npm run catalog`), orders `tools/list`, and lets the registry refuse at start-up
 * a tool whose name, group or write flag disagrees with it. What a tool is lives in its `defineTool`.
 */
export const specTools: ReadonlyArray<SpecTool> = [
  ...group(
    "Workspace",
    [
      "svc_list_workspaces",
      "svc_list_workspace_items",
      "svc_find_workspace_items",
      "svc_search_workspace_items",
      "svc_get_note_markdown",
      "svc_read_media_card",
      "svc_read_board",
      "svc_read_table",
      "svc_get_connections",
      "svc_list_tags",
      "svc_list_chats"
    ],
    []
  ),
  ...group("Highlights & captures", ["svc_search_highlights", "svc_search_captures"], []),
  ...group(
    "Social intelligence",
    [
      "svc_read_card",
      "svc_search_creators",
      "svc_resolve_creator",
      "svc_analyze_creator",
      "svc_read_social_post",
      "svc_following_overview",
      "svc_analyze_list",
      "svc_search_social_content",
      "svc_study_top_titles",
      "svc_search_ads",
      "svc_get_brand_ads",
      "svc_get_brand_list_ads"
    ],
    ["svc_save_brands_to_list", "svc_remove_brands_from_list", "svc_save_creators_to_list"]
  ),
  ...group(
    "Boards & documents",
    [],
    [
      "svc_create_board",
      "svc_connect_items",
      "svc_rename_board",
      "svc_trash_board",
      "svc_trash_item",
      "svc_create_note",
      "svc_patch_note",
      "svc_update_note",
      "svc_create_sticky_note",
      "svc_rename_note",
      "svc_append_to_note",
      "svc_save_links_to_board",
      "svc_save_posts_to_board",
      "svc_save_posts_to_library",
      "svc_save_ads_to_board",
      "svc_save_items_to_board",
      "svc_add_media_to_board",
      "svc_create_table",
      "svc_add_table_rows",
      "svc_update_table_rows",
      "svc_update_table",
      "svc_update_item_tags",
      "svc_set_item_note"
    ]
  ),
  ...group(
    "Scheduling",
    [
      "svc_list_schedules",
      "svc_list_scheduled_posts",
      "svc_search_instagram_music",
      "svc_get_analytics",
      "svc_list_analytics_posts",
      "svc_list_auto_dm_rules"
    ],
    [
      "svc_update_schedule",
      "svc_prepare_scheduling_media_upload",
      "svc_scheduling_media_multipart",
      "svc_upload_scheduling_media",
      "svc_import_scheduling_media",
      "svc_create_scheduling_draft",
      "svc_schedule_post",
      "svc_publish_post_now",
      "svc_update_scheduled_post",
      "svc_cancel_scheduled_post",
      "svc_connect_social_accounts",
      "svc_create_auto_dm_automation",
      "svc_update_auto_dm_automation",
      "svc_delete_auto_dm_automation"
    ]
  ),
  ...group("Routines", ["svc_list_routines"], ["svc_create_routine", "svc_update_routine"]),
  ...group("Media", ["svc_study_top_carousels"], []),
  ...group(
    "Custom AI",
    [
      "svc_list_custom_ai",
      "svc_get_custom_ai",
      "svc_get_custom_ai_builder_guide",
      "svc_read_custom_ai_knowledge",
      "svc_search_custom_ai_knowledge",
      "svc_get_custom_ai_answer"
    ],
    [
      "svc_create_custom_ai",
      "svc_update_custom_ai",
      "svc_manage_custom_ai_sources",
      "svc_delete_custom_ai",
      "svc_ask_custom_ai"
    ]
  ),
  ...group("Skills", ["svc_list_skills", "svc_get_skill", "svc_export_skill"], ["svc_import_skill"]),
  ...group(
    "Store",
    [
      "svc_get_seller_overview",
      "svc_list_stores",
      "svc_get_custom_ai_product",
      "svc_get_bundle",
      "svc_list_customers",
      "svc_get_customer"
    ],
    [
      "svc_import_product_reviews",
      "svc_save_custom_ai_product",
      "svc_publish_custom_ai_product",
      "svc_save_bundle",
      "svc_organize_custom_ai_knowledge",
      "svc_manage_customer_access",
      "svc_import_customers",
      "svc_manage_cohorts",
      "svc_manage_coaching",
      "svc_manage_content_links",
      "svc_manage_affiliates",
      "svc_manage_sales",
      "svc_manage_store_emails",
      "svc_manage_calendar",
      "svc_manage_lesson_questions",
      "svc_manage_forms",
      "svc_update_creator_page"
    ]
  )
].map((entry) => {
  const target = aliases[entry.name]
  return target === undefined ? entry : { ...entry, aliasOf: target }
})

/** Spec entries by name. */
export const specToolsByName: ReadonlyMap<string, SpecTool> = new Map(specTools.map((entry) => [entry.name, entry]))
