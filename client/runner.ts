/**
 * The headless runner's entry (dist/pagehand.runner.js): the runner's store first, then the
 * same entry as pagehand.js.
 */
import './runner-env';
import './index';
