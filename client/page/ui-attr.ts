/**
 * The attribute on the host of the agent's own UI (overlay, mask, Set-of-Marks boxes): the page
 * layer leaves what carries it out of the map and out of reach; the panel and the launcher put
 * it on their hosts.
 */
export const UI_ATTR = 'data-pagehand-ui';
