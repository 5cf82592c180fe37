/**
 * The panel's language menu: every language we have, each named in itself (and marked with its
 * lang, so a screen reader says it right). The choice is the user's and is remembered
 * (./storage.ts); the panel shows it once its strings are loaded.
 */
import type { Strings } from './i18n';
import { LANGUAGES, type Lang } from './languages';

export function LangMenu({ t, pick }: { t: Strings; pick(lang: Lang): void }) {
  return (
    <select
      class="langs"
      aria-label={t.language}
      title={t.language}
      value={t.locale}
      onChange={(e) => pick((e.currentTarget as HTMLSelectElement).value as Lang)}
      data-lang-menu
    >
      {(Object.keys(LANGUAGES) as Lang[]).map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGES[code]}
        </option>
      ))}
    </select>
  );
}
