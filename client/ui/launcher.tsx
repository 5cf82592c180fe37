/**
 * The launcher: a round button, or with the site's `launcherText` a pill with that text, that
 * opens the panel. It sits in the panel's corner on the site's side (`position`), so it is
 * where the panel folds into and opens from: the viewport's corner until the user moves the
 * panel.
 */
import type { LauncherPosition } from '../agent/types';
import type { Strings } from './i18n';

type Box = { x: number; y: number; width: number; height: number };

/**
 * CSS offsets from the viewport edges of `corner`: anchored there, a launcher whose width
 * follows its text grows away from the edge and never off screen.
 */
export function launcherAnchor(box: Box, corner: LauncherPosition, vw: number, vh: number): Record<'left' | 'right' | 'top' | 'bottom', string | undefined> {
  const px = (n: number): string => `${Math.max(0, Math.round(n))}px`;
  const left = corner.endsWith('left');
  const top = corner.startsWith('top');
  return {
    left: left ? px(box.x) : undefined,
    right: left ? undefined : px(vw - box.x - box.width),
    top: top ? px(box.y) : undefined,
    bottom: top ? undefined : px(vh - box.y - box.height),
  };
}

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
