/** Text for an HTML element or a quoted attribute: the five characters that could end either, as entities. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
