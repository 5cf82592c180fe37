/**
 * The agent's entry (dist/pagehand-agent.HASH.js), run under the loader's stub: the panel, which
 * imports the engine beside it (./panel-first.ts). Its hooks, network and settle modules are the
 * loader's (build swaps them in, see build-embed.ts), its modules load with the built-ins the
 * loader found (see ./take-handoff.ts), and the engine hands `window.pagehand` over from the stub.
 */
import './take-handoff';
import './panel-first';
import './restore-natives';
