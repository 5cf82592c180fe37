/** The shared proxy suite with the app running inside workerd (vitest-pool-workers). */
import { defineFuzzSuite } from './suite/fuzz-suite';
import { defineLimitsSuite } from './suite/limits-suite';
import { defineProxySuite } from './suite/proxy-suite';
import { defineSessionSuite } from './suite/session-suite';
import { workerdTarget } from './suite/workerd-target';

defineProxySuite(workerdTarget());
defineFuzzSuite(workerdTarget());
defineSessionSuite(workerdTarget());
defineLimitsSuite(workerdTarget());
