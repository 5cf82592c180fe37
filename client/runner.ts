/**
 * The headless runner's entry (dist/pagehand.runner.js): the runner's environment first, then
 * the same entry as pagehand.js, then what must follow it (client/runner-env.ts).
 */
import { afterEntry } from './runner-env';
import './index';

afterEntry();
