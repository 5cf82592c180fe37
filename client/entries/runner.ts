/**
 * The headless runner's entry (dist/pagehand.runner.js): the runner's environment
 * (client/entries/runner-env.ts), then the same start as pagehand.js with it.
 */
import { runnerEnv } from './runner-env';
import { startPagehand } from '../start';

startPagehand(runnerEnv());
