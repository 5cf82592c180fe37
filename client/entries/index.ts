/**
 * The entry of pagehand.js (a script tag, the bookmarklet's loader) and of the npm entry: the
 * overlay and the engine together, at once, with nothing supplied by an embedding (./start.ts).
 * The embed's agent loads the same two halves apart, the panel first (client/loader/agent.ts).
 */
import { startPagehand } from '../start';

startPagehand();
