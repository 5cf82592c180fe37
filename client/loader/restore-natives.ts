/** The agent chunk's last import: the page's own built-ins back (see ./take-handoff.ts). */
import { applyNatives } from './handoff';
import { pageNatives } from './take-handoff';

applyNatives(pageNatives);
