/**
 * Hebrew (right to left; the plural imperative and impersonal forms Hebrew interfaces use, so no
 * sentence assumes the reader's gender). Text from elsewhere sits in a bidi isolate, as in ./ar.ts.
 */
import { money, num } from '../format';
import type { Strings } from '../i18n';

const iso = (s: string): string => `\u2068${s}\u2069`;

const he: Strings = {
  locale: 'he',
  title: 'pagehand',
  taskLabel: 'מה לעשות בדף הזה?',
  taskHint: 'Enter שולח, Shift+Enter מוסיף שורה.',
  intro: 'ספרו לי מה לעשות בדף הזה. אני עובד צעד אחר צעד ומציג כאן כל צעד; אפשר לעצור אותי או לקחת את השליטה בכל רגע, ולפני כל פעולה מסוכנת אני שואל.',
  send: 'שליחה',
  sendWaiting: 'שליחה…',
  waitingAgent: 'הסוכן עדיין נטען: המשימה תישלח ברגע שיהיה מוכן.',
  agentFailed: (why) => `לא ניתן היה לטעון את הסוכן, ולכן המשימה לא נשלחה (היא חזרה לתיבה). כדי לנסות שוב יש לטעון מחדש את הדף. (${iso(why)})`,
  stop: 'עצירה',
  takeOver: 'לקיחת שליטה',
  resume: 'המשך',
  collapse: 'מזעור',
  expand: 'פתיחת pagehand',
  close: 'סגירה',
  move: 'הזזת החלונית (מקשי החיצים)',
  log: 'צעדי הסוכן',
  step: (k, max) => `צעד ${num(k, 'he')} מתוך ${num(max, 'he')}`,
  tokens: (n) => (n === 1 ? 'טוקן אחד' : `${num(n, 'he')} טוקנים`),
  cost: (usd) => money(usd, 'he'),
  secrets: 'ערכים שהסוכן יכול להקליד אבל לא לראות',
  secretsHint: 'הסוכן קורא \u2066<secret:name>\u2069 ומקליד את הערך; הערך אף פעם לא יוצא מהדף.',
  secretName: 'שם',
  secretValue: 'ערך',
  addSecret: 'הוספת ערך',
  removeSecret: 'הסרה',
  attach: 'צירוף קבצים שהסוכן יכול להעלות',
  attachShort: 'צירוף קבצים',
  attached: 'קבצים מצורפים',
  removeFile: (name) => `הסרת ${iso(name)}`,
  thinking: 'חושב…',
  details: 'פרטים',
  evaluation: 'הערכה',
  memory: 'זיכרון',
  nextGoal: 'היעד הבא',
  result: 'תוצאה',
  askTitle: 'הסוכן שואל',
  answer: 'התשובה שלך',
  confirmTitle: 'לאשר את הפעולה הזו?',
  action: 'פעולה',
  element: 'רכיב',
  why: 'למה נדרש אישור',
  goal: 'מטרה',
  allowIt: (kind) => `אישור: ${kind}`,
  deny: 'לא לאשר',
  arming: 'הכפתור "אישור" פועל אחרי שהכרטיס הזה מוצג במלואו לרגע, בלי שום דבר מעליו.',
  allowKind: (kind) => `אישור כל פעולות ה"${kind}" במשימה הזו`,
  kinds: {
    payment: 'תשלום',
    deletion: 'מחיקה',
    sending: 'שליחה',
    personal_data: 'מידע אישי',
    leaving_site: 'יציאה מהאתר',
    download: 'הורדה',
    site_tool: 'כלי של האתר',
    unjudged: 'לא נבדק',
  },
  done: 'הושלם',
  notDone: 'לא הושלם',
  copy: 'העתקה',
  copied: 'הועתק',
  error: 'משהו השתבש',
  retry: 'ניסיון חוזר',
  runAgain: 'הרצה חוזרת',
  saveRecording: 'שמירה כהקלטה',
  siteTasks: 'משימות לאתר הזה',
  stopped: 'נעצר.',
  resumed: 'הדף השתנה; המשימה ממשיכה כאן.',
  dismiss: 'הסתרה',
  history: 'משימות קודמות באתר הזה',
  paused: 'השליטה אצלך. הסוכן ממתין ללחיצה על "המשך".',
  working: 'הסוכן עובד; הדף נעול.',
  retrying: (s) => `ניסיון נוסף בעוד ${num(s, 'he')} שנ׳`,
  you: 'המשתמש',
  agent: 'הסוכן',
  language: 'שפה',
  replayUnavailable: 'הרצה חוזרת אינה זמינה כאן.',
  conversation: 'קודם בשיחה הזו',
  newConversation: 'שיחה חדשה',
  showMe: 'הראה לי',
  goneFromPage: 'כבר לא בדף',
  rateAnswer: 'דרגו את התשובה',
  helpful: 'מועילה',
  notHelpful: 'לא מועילה',
  thanks: 'תודה על המשוב.',
  starters: 'נסו לשאול',
  voiceStart: 'הכתבת המשימה',
  voiceStop: 'הפסקת ההכתבה',
  listening: 'מאזין… נעצר כשעוצרים לדבר, או לחצו שוב על המיקרופון.',
  voiceError: (code) =>
    code === 'not-allowed' || code === 'service-not-allowed'
      ? 'המיקרופון אינו מותר בדף הזה. אפשרו אותו בדפדפן, או הקלידו את המשימה.'
      : code === 'no-speech'
        ? 'לא נשמע דבר. לחצו על המיקרופון ודברו, או הקלידו את המשימה.'
        : code === 'audio-capture'
          ? 'לא נמצא מיקרופון. הקלידו את המשימה.'
          : `ההכתבה נעצרה (${code}). נסו שוב, או הקלידו את המשימה.`,
  browserModel: 'להשתמש במודל של הדפדפן עצמו (בלי פרוקסי ובלי מפתח)',
  browserModelState: {
    available: 'הוא רץ במכשיר הזה. זה מודל קטן שמחליט פחות טוב ממודל גדול, לכן קראו היטב את מה שהוא שואל אתכם.',
    downloadable: 'הדפדפן מוריד את המודל שלו (פעם אחת, כמה ג׳יגה-בייט) כשמפעילים את האפשרות הזו או שולחים משימה.',
    unavailable:
      'הדפדפן הזה לא יכול להריץ כאן את המודל שלו: צריך Chrome למחשב עם המודל המובנה מופעל, ומספיק מקום פנוי בדיסק ובזיכרון. השתמשו במקום זאת בפרוקסי עם מודל.',
  },
  browserModelProgress: (loaded) => `מוריד את המודל של הדפדפן: ${num(Math.round(loaded * 100), 'he')}%`,
};

export default he;
