/**
 * The text protocol, for models without tool calls: the request's tools are described in the
 * system message and removed from the request, earlier calls and results become plain turns,
 * and the model's text reply is read back into tool calls (common/text-calls.ts) in the wire
 * format the page reads, so everything after the parsed call is the tool path's. Pure, apart
 * from fresh ids for the calls.
 */
import { callsInText, toolNames } from '../../common/text-calls';
import type { ChatMessage, ContentPart, ResolvedChatRequest, TextPart, ToolCall, ToolDef } from './types';

const textOf = (content: string | TextPart[] | ContentPart[] | null | undefined): string =>
  typeof content === 'string' ? content : (content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');

/** A call as the protocol writes it. */
const written = (call: ToolCall): { tool: string; arguments: unknown } => {
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    args = call.function.arguments;
  }
  return { tool: call.function.name, arguments: args };
};

/**
 * The system message's section describing the tools: each one's name, description and the JSON
 * Schema of its arguments, and how to answer.
 */
export function toolSection(tools: readonly ToolDef[], choice: ResolvedChatRequest['tool_choice']): string {
  const lines = [
    '# Tools (answer in text)',
    'You have no tool-calling interface. To act, reply with exactly one JSON object {"tool": "<name>", "arguments": {…}} and nothing else besides the short reasoning lines asked for above, if any. Several actions that need no new look at the page may go in one JSON array of such objects.',
  ];
  if (choice === 'required') lines.push('Every reply must call a tool.');
  else if (typeof choice === 'object') lines.push(`Call the tool "${choice.function.name}".`);
  for (const t of tools) {
    lines.push('', `## ${t.function.name}`);
    if (t.function.description) lines.push(t.function.description);
    lines.push(`arguments: ${JSON.stringify(t.function.parameters ?? { type: 'object', properties: {} })}`);
  }
  return lines.join('\n');
}

/**
 * The request as a model without tool calls takes it. Tool results become user turns (merged
 * with the user turn after them: some chat templates want the roles to alternate).
 *
 * @example
 * const sent = toTextRequest({ model: 'llama3.2', messages, tools, tool_choice: 'auto' });
 * // no `tools`, no `tool_choice`; the system message ends with the tools' section
 */
export function toTextRequest(req: ResolvedChatRequest): ResolvedChatRequest {
  const { tools, tool_choice: choice, parallel_tool_calls: _parallel, ...rest } = req;
  const names = new Map<string, string>();
  const messages: ChatMessage[] = [];
  const pushUser = (text: string) => {
    const last = messages[messages.length - 1];
    if (last?.role === 'user') {
      last.content = typeof last.content === 'string' ? `${last.content}\n\n${text}` : [...last.content, { type: 'text', text: `\n\n${text}` }];
    } else messages.push({ role: 'user', content: text });
  };
  for (const m of req.messages) {
    if (m.role === 'assistant' && m.tool_calls?.length) {
      for (const c of m.tool_calls) names.set(c.id, c.function.name);
      const calls = m.tool_calls.map(written);
      const json = JSON.stringify(calls.length === 1 ? calls[0] : calls);
      const said = textOf(m.content).trim();
      messages.push({ role: 'assistant', content: said ? `${said}\n${json}` : json });
    } else if (m.role === 'tool') {
      pushUser(`Result of ${names.get(m.tool_call_id) ?? 'the tool'}:\n${textOf(m.content)}`);
    } else if (m.role === 'user') {
      const last = messages[messages.length - 1];
      if (last?.role === 'user') {
        const parts: ContentPart[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
        last.content = [...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content), ...parts];
      } else messages.push({ ...m });
    } else messages.push({ ...m });
  }
  if (tools?.length && choice !== 'none') {
    const section = toolSection(tools, choice);
    const sys = messages.findIndex((m) => m.role === 'system' || m.role === 'developer');
    if (sys < 0) messages.unshift({ role: 'system', content: section });
    else messages[sys] = { ...messages[sys]!, content: `${textOf(messages[sys]!.content as string | TextPart[])}\n\n${section}` } as ChatMessage;
  }
  return { ...rest, messages };
}

const newCallId = (): string => `call_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;

/**
 * A text reply read back: the calls it wrote, as tool calls, and the text around them (the
 * model's reasoning). A reply with no call is left as it is.
 */
export function callsFromReply(content: string, tools: readonly ToolDef[]): { content: string; toolCalls: ToolCall[] } {
  const { calls, rest } = callsInText(content, toolNames(tools.map((t) => t.function.name)));
  if (!calls.length) return { content, toolCalls: [] };
  return {
    content: rest,
    toolCalls: calls.map((c) => ({ id: newCallId(), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
  };
}
