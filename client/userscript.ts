/**
 * The userscript's entry (dist/pagehand.user.js): the GM environment first, then the same
 * entry as pagehand.js. build.ts adds the metadata block.
 */
import { restoreCurrentScript } from './userscript-env';
import './index';

restoreCurrentScript();
