/** The default log sink: one JSON line per event on the console (Node stdout, Workers logs). */
import type { Logger } from './config';

/**
 * @example
 * configFromEnv(process.env, { rateLimiter, log: consoleLogger });
 */
export const consoleLogger: Logger = (event) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...event });
  if (event.level === 'error') console.error(line);
  else if (event.level === 'warn') console.warn(line);
  else console.log(line);
};
