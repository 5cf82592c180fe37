/** Real token counts with an o200k tokenizer (the GPT-4o family's encoding). */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export function countTokens(text: string): number {
  return encode(text).length;
}
