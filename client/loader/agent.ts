/**
 * The agent chunk's entry (dist/pagehand-agent.HASH.js): the same entry as pagehand.js, run
 * under the loader's stub. Its hooks, network and settle modules are the loader's (build swaps
 * them in, see build-embed.ts), its modules load with the built-ins the loader found (see
 * ./take-handoff.ts), and the entry hands `window.pagehand` over from the stub.
 */
import './take-handoff';
import '../index';
import './restore-natives';
