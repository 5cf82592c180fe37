/**
 * What one image counts for in a prompt's estimated size, whatever its bytes: about what the
 * providers charge for one full-size screenshot. The proxy caps prompts with it
 * (server/chat/prompt-size.ts) and the agent budgets its request with it (client/agent/request.ts),
 * so a step that sends a screenshot stays within the cap it planned for.
 */
export const IMAGE_TOKENS = 800;
