/**
 * Arabic (Modern Standard Arabic; right to left). What comes from elsewhere — a file's name, an
 * error, the <secret:…> syntax — sits in a bidi isolate (U+2066/U+2068 … U+2069), so Latin text
 * inside an Arabic sentence keeps its own order and does not drag the punctuation around it.
 */
import { money, num } from '../format';
import type { Strings } from '../i18n';

const iso = (s: string): string => `\u2068${s}\u2069`;

const ar: Strings = {
  locale: 'ar',
  title: 'pagehand',
  taskLabel: 'ماذا أفعل في هذه الصفحة؟',
  taskHint: 'يرسل Enter المهمة، ويضيف Shift+Enter سطرًا جديدًا.',
  intro: 'أخبرني بما تريد أن أفعله في هذه الصفحة. أعمل خطوة بخطوة وأعرض كل خطوة هنا؛ يمكنك إيقافي أو تولّي التحكم في أي وقت، وأسألك قبل أي إجراء فيه مخاطرة.',
  send: 'إرسال',
  sendWaiting: 'جارٍ الإرسال…',
  waitingAgent: 'لا يزال الوكيل قيد التحميل: ستُرسَل مهمتك فور جاهزيته.',
  agentFailed: (why) => `تعذّر تحميل الوكيل، لذا لم تُرسَل مهمتك (أعدناها إلى المربع). أعد تحميل الصفحة للمحاولة مجددًا. (${iso(why)})`,
  stop: 'إيقاف',
  takeOver: 'تولّي التحكم',
  resume: 'استئناف',
  collapse: 'تصغير',
  expand: 'فتح pagehand',
  close: 'إغلاق',
  move: 'نقل اللوحة (مفاتيح الأسهم)',
  log: 'خطوات الوكيل',
  step: (k, max) => `الخطوة ${num(k, 'ar')} من ${num(max, 'ar')}`,
  tokens: (n) => `الرموز: ${num(n, 'ar')}`,
  cost: (usd) => money(usd, 'ar'),
  secrets: 'قيم يمكن للوكيل كتابتها دون أن يراها',
  secretsHint: 'يقرأ الوكيل \u2066<secret:name>\u2069 ويكتب القيمة؛ ولا تغادر القيمة الصفحة أبدًا.',
  secretName: 'الاسم',
  secretValue: 'القيمة',
  addSecret: 'إضافة قيمة',
  removeSecret: 'إزالة',
  attach: 'إرفاق ملفات يمكن للوكيل رفعها',
  attachShort: 'إرفاق ملفات',
  attached: 'الملفات المرفقة',
  removeFile: (name) => `إزالة ${iso(name)}`,
  thinking: 'يفكّر…',
  details: 'التفاصيل',
  evaluation: 'التقييم',
  memory: 'الذاكرة',
  nextGoal: 'الهدف التالي',
  result: 'النتيجة',
  askTitle: 'الوكيل يسألك',
  answer: 'إجابتك',
  confirmTitle: 'هل تسمح بهذا الإجراء؟',
  action: 'الإجراء',
  element: 'العنصر',
  why: 'لماذا يحتاج إليك',
  goal: 'الهدف',
  allowIt: (kind) => `السماح: ${kind}`,
  deny: 'عدم السماح',
  arming: 'يعمل زر «السماح» بعد أن تظهر هذه البطاقة كاملةً للحظة دون أن يغطيها شيء.',
  allowKind: (kind) => `السماح بكل إجراءات «${kind}» في هذه المهمة`,
  kinds: {
    payment: 'دفع',
    deletion: 'حذف',
    sending: 'إرسال',
    personal_data: 'بيانات شخصية',
    leaving_site: 'مغادرة الموقع',
    download: 'تنزيل',
    site_tool: 'أداة الموقع',
    unjudged: 'لم يُفحص',
  },
  done: 'تم',
  notDone: 'لم يكتمل',
  refusedStep: (kind, what, denied) => `${denied ? 'لم تسمح بذلك' : 'فشل'}: ${kind} — ${what}`,
  agentSaid: 'قال الوكيل:',
  unbacked: (kind) => `تتحدث الإجابة عن ${kind}، لكن لم تُنفَّذ أي خطوة من هذا النوع.`,
  budgetStop: (cost) => `توقف: بلغ التشغيل حد ${cost ? 'التكلفة' : 'الرموز'} قبل إنجاز المهمة.`,
  copy: 'نسخ',
  copied: 'تم النسخ',
  error: 'حدث خطأ ما',
  retry: 'إعادة المحاولة',
  runAgain: 'تشغيل مجددًا',
  saveRecording: 'حفظ كتسجيل',
  saveReport: 'حفظ التقرير',
  siteTasks: 'مهام هذا الموقع',
  stopped: 'توقّف.',
  resumed: 'تغيّرت الصفحة؛ وتستمر المهمة هنا.',
  dismiss: 'إخفاء',
  history: 'مهام سابقة على هذا الموقع',
  paused: 'التحكم بيدك الآن. ينتظر الوكيل حتى تستأنف.',
  working: 'الوكيل يعمل؛ الصفحة مقفلة.',
  retrying: (s) => `إعادة المحاولة بعد ${num(s, 'ar')} ث`,
  you: 'أنت',
  agent: 'الوكيل',
  language: 'اللغة',
  replayUnavailable: 'إعادة التشغيل غير متاحة هنا.',
  conversation: 'في وقت سابق من هذه المحادثة',
  newConversation: 'محادثة جديدة',
  showMe: 'أرني',
  goneFromPage: 'لم يعد في الصفحة',
  rateAnswer: 'قيّم هذه الإجابة',
  helpful: 'مفيدة',
  notHelpful: 'غير مفيدة',
  thanks: 'شكرًا على ملاحظاتك.',
  starters: 'جرّب أن تسأل',
  voiceStart: 'إملاء المهمة',
  voiceStop: 'إيقاف الإملاء',
  listening: 'يستمع… يتوقف عندما تتوقف عن الكلام، أو اضغط الميكروفون مرة أخرى.',
  voiceError: (code) =>
    code === 'not-allowed' || code === 'service-not-allowed'
      ? 'الميكروفون غير مسموح به في هذه الصفحة. اسمح به في المتصفح، أو اكتب المهمة.'
      : code === 'no-speech'
        ? 'لم يُسمع شيء. اضغط الميكروفون وتحدث، أو اكتب المهمة.'
        : code === 'audio-capture'
          ? 'لم يُعثر على ميكروفون. اكتب المهمة بدلًا من ذلك.'
          : `توقف الإملاء (${code}). حاول مرة أخرى، أو اكتب المهمة.`,
  browserModel: 'استخدام نموذج المتصفح نفسه (بلا وسيط ولا مفتاح)',
  browserModelState: {
    available: 'يعمل على هذا الجهاز. إنه نموذج صغير يقرّر أقل جودة من النماذج الكبيرة، فاقرأ جيدًا ما يسألك عنه.',
    downloadable: 'ينزّل المتصفح نموذجه (مرة واحدة، عدة غيغابايت) عندما تفعّل هذا الخيار أو ترسل مهمة.',
    unavailable:
      'لا يستطيع هذا المتصفح تشغيل نموذجه هنا: يلزم Chrome لسطح المكتب مع تفعيل النموذج المدمج، ومساحة كافية على القرص وذاكرة كافية. استخدم بدلًا من ذلك وسيطًا (proxy) فيه نموذج.',
  },
  browserModelProgress: (loaded) => `جارٍ تنزيل نموذج المتصفح: ${num(Math.round(loaded * 100), 'ar')}٪`,
};

export default ar;
