/**
 * The panel's languages: which there are (each named in itself, for the language menu), which
 * are written right to left, and which one a page gets. Pure, so unit-tested directly; the
 * strings themselves are in ./i18n.ts (English, the key list) and ./lang/*.ts (the others,
 * each loaded only when shown: ./lang-load.ts).
 */

/** Code → the language's own name. English first; the rest in the order the menu lists them. */
export const LANGUAGES = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  zh: '简体中文',
  ko: '한국어',
  ar: 'العربية',
  he: 'עברית',
} as const;

export type Lang = keyof typeof LANGUAGES;

/** Written right to left: the panel's root gets dir="rtl" and its layout mirrors. */
export const isRtl = (lang: Lang): boolean => lang === 'ar' || lang === 'he';

/** Older or other tags for a language we have (`iw` is Hebrew's code before 1989, still sent by some systems). */
const ALIASES = new Map<string, Lang>([['iw', 'he']]);

/** A BCP 47 tag ('pt-BR', 'zh-Hant-TW', 'he') to the language we have for it, if any. */
export function matchLang(tag: string | undefined | null): Lang | undefined {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0]!;
  if (Object.prototype.hasOwnProperty.call(LANGUAGES, base)) return base as Lang;
  return ALIASES.get(base);
}

export interface LangSources {
  /** What the user picked in the panel's menu (remembered). */
  chosen?: string;
  /** The site's word, strongest first: open()'s `lang`, init's, the script tag's `data-lang`. */
  site?: ReadonlyArray<string | undefined>;
  /** The page's `<html lang>`. */
  page?: string;
  /** The browser's languages, preferred first (`navigator.languages`). */
  browser?: readonly string[];
  /**
   * A stranger's page (bookmarklet, userscript): the user is the one talking, so neither the
   * site's word nor the page's language counts — only the user's choice and their browser's.
   */
  stranger?: boolean;
}

/**
 * The language the panel shows: the user's choice; on a site's own page, the site's `lang`
 * (open, init, data-lang), else the page's `<html lang>`; then the browser's languages in
 * order; English when none of them is one we have.
 */
export function chooseLang({ chosen, site = [], page, browser = [], stranger = false }: LangSources): Lang {
  const order = [chosen, ...(stranger ? [] : [...site, page]), ...browser];
  for (const tag of order) {
    const lang = matchLang(tag);
    if (lang) return lang;
  }
  return 'en';
}
