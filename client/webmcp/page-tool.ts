/** The page's own tools as the agent offers them, and the site's as the browser's registry is given them. */
import type { JsonSchema } from '../llm/wire';
import type { FormTool } from './forms';
import type { RegisteredTool } from './webmcp-types';

/** A tool of the site's own (`init({ tools })`, the agent's CustomTool) as the browser's registry is given it. */
export interface SiteTool {
  name: string;
  description: string;
  parameters?: JsonSchema;
  handler: (args: Record<string, unknown>) => unknown;
  readOnly?: boolean;
}

export interface PageTool {
  /** The name the model calls: the page's, with characters the tool format refuses as `_`. */
  name: string;
  /** The page's own name (WebMCP allows `.`). */
  pageName: string;
  /** What the page says the tool does (page text). */
  description: string;
  /** The input schema as the page gave it (or as the form's controls make it). */
  inputSchema: JsonSchema;
  /** `readOnlyHint: true` (never for forms: a form is judged by its actions). */
  readOnly: boolean;
  /** The page is a stranger's: ask on every call, describe it as page data. */
  untrusted: boolean;
  /** A tool registered with `document.modelContext`: runs the page's `execute`. */
  registered?: RegisteredTool;
  /** A declarative form tool: filled and submitted with pagehand's actions. */
  form?: FormTool;
}
