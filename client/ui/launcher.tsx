/**
 * The launcher: a round button, or with the site's `launcherText` a pill with that text, that
 * opens the panel. It sits in the panel's corner on the site's side (`position`), so it is
 * where the panel folds into and opens from: the viewport's corner until the user moves the
 * panel.
 */
import type { Strings } from './i18n';
import type { launcherAnchor } from './storage';

interface Props {
  t: Strings;
  /** The site's text; without it the button shows the icon and is named by `t.expand`. */
  text?: string;
  anchor: ReturnType<typeof launcherAnchor>;
  running: boolean;
  onOpen(): void;
}

export function Launcher({ t, text, anchor, running, onOpen }: Props) {
  return (
    <button
      type="button"
      class={text ? 'launcher labelled' : 'launcher'}
      // The visible text is the name when there is one (what speech users say to click it).
      aria-label={text ? undefined : t.expand}
      title={t.expand}
      style={anchor}
      onClick={onOpen}
    >
      <svg width="24" height="24" viewBox="0 0 22 22" aria-hidden="true">
        <path d="M4 3l14 8.5-6.5 1.5L8 19z" fill="currentColor" />
      </svg>
      {text && <span class="lt">{text}</span>}
      {running && <span class="dot on" aria-hidden="true" />}
    </button>
  );
}
