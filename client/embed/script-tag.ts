/**
 * The defaults the bundle's own script tag carries, e.g. a site's embed
 *
 *   <script src="PROXY/pagehand.js" data-pagehand-proxy="PROXY" data-pagehand-token="TOKEN"
 *           data-lang="es" data-position="bottom-left" data-model="…" async></script>
 *
 * `lang`, `position` and `model` are read as `data-X` or `data-pagehand-X` (the snippet mixes
 * both spellings; either works). A bad attribute cannot throw at the site's visitors: a
 * position we do not know falls back to the default with one console warning.
 */
import type { ScriptDefaults } from '../agent/api';
import type { LauncherPosition } from '../agent/public-types';
import { POSITIONS } from './init-config';

export interface EmbedDefaults extends ScriptDefaults {
  /** Where the launcher (and the panel, until moved) sits. */
  position?: LauncherPosition;
}

export function readScriptTag(script: Element | null, baseUrl: string, warn: (message: string) => void = console.warn): EmbedDefaults {
  if (!script) return {};
  const attr = (...names: string[]): string | undefined => {
    for (const n of names) {
      const v = script.getAttribute(n)?.trim();
      if (v) return v;
    }
    return undefined;
  };
  const either = (k: string): string | undefined => attr(`data-${k}`, `data-pagehand-${k}`);
  let origin: string | undefined;
  try {
    const src = script.getAttribute('src');
    if (src) origin = new URL(src, baseUrl).origin;
  } catch {
    origin = undefined;
  }
  const position = either('position');
  let corner: LauncherPosition | undefined;
  if (position && (POSITIONS as readonly string[]).includes(position)) corner = position as LauncherPosition;
  else if (position) warn(`pagehand: data-position="${position}" is not one of ${POSITIONS.join(', ')}; the launcher stays at ${POSITIONS[0]}.`);
  return {
    proxy: attr('data-pagehand-proxy') ?? origin,
    token: attr('data-pagehand-token'),
    model: either('model'),
    lang: either('lang'),
    position: corner,
    embed: script.hasAttribute('data-pagehand-token') && !script.hasAttribute('data-pagehand-loader'),
  };
}
