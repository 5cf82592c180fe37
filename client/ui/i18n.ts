/**
 * Every string the overlay shows, in English and Spanish. One table so a translation is one
 * place to edit; functions where a number or a name goes inside the sentence.
 */
import type { RiskKind } from '../agent/public-types';

export type Lang = 'en' | 'es';

/** A run's cost: cents and below with four decimals (a step costs fractions of a cent). */
function dollars(usd: number, lang: Lang): string {
  const digits = usd < 1 ? 4 : 2;
  try {
    return new Intl.NumberFormat(lang === 'es' ? 'es' : 'en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(usd);
  } catch {
    return `$${usd.toFixed(digits)}`;
  }
}

const en = {
  title: 'pagehand',
  taskLabel: 'What should I do on this page?',
  taskHint: 'Enter sends, Shift+Enter adds a line.',
  intro:
    'Tell me what to do on this page. I work step by step and show each step here; you can stop or take over at any time, and I ask before anything risky.',
  send: 'Send',
  sendWaiting: 'Sending…',
  voiceStart: 'Dictate the task',
  voiceStop: 'Stop dictating',
  listening: 'Listening… It stops when you pause, or press the microphone again.',
  voiceError: (code: string) =>
    code === 'not-allowed' || code === 'service-not-allowed'
      ? 'The microphone is not allowed on this page. Allow it in the browser, or type the task.'
      : code === 'no-speech'
        ? 'Nothing was heard. Press the microphone and speak, or type the task.'
        : code === 'audio-capture'
          ? 'No microphone was found. Type the task instead.'
          : `Dictation stopped (${code}). Try again, or type the task.`,
  waitingAgent: 'The agent is still loading: your task goes as soon as it is here.',
  agentFailed: (why: string) => `The agent could not be loaded, so your task was not sent (it is back in the box). Reload the page to try again. (${why})`,
  stop: 'Stop',
  takeOver: 'Take over',
  resume: 'Resume',
  collapse: 'Minimise',
  expand: 'Open pagehand',
  close: 'Close',
  move: 'Move the panel (arrow keys)',
  log: 'Agent steps',
  step: (k: number, max: number) => `Step ${k} of ${max}`,
  tokens: (n: number) => `${n.toLocaleString('en')} tokens`,
  cost: (usd: number) => dollars(usd, 'en'),
  secrets: 'Values the agent may type but not see',
  secretsHint: 'The agent reads <secret:name> and types the value; the value never leaves the page.',
  secretName: 'Name',
  secretValue: 'Value',
  addSecret: 'Add a value',
  removeSecret: 'Remove',
  attach: 'Attach files the agent may upload',
  attachShort: 'Attach files',
  attached: 'Attached files',
  removeFile: (name: string) => `Remove ${name}`,
  thinking: 'Thinking…',
  details: 'Details',
  evaluation: 'Evaluation',
  memory: 'Memory',
  nextGoal: 'Next goal',
  result: 'Result',
  askTitle: 'The agent asks you',
  answer: 'Your answer',
  confirmTitle: 'Allow this action?',
  action: 'Action',
  element: 'Element',
  why: 'Why it needs you',
  goal: 'Goal',
  /** The card's Allow names what it allows (the kind is pagehand's word, never the page's). */
  allowIt: (kind: string) => `Allow: ${kind.toLowerCase()}`,
  deny: "Don't allow",
  arming: 'Allow works once this card has been in full view for a moment, with nothing over it.',
  allowKind: (kind: string) => `Allow every ${kind.toLowerCase()} action this run`,
  kinds: {
    payment: 'Payment',
    deletion: 'Deletion',
    sending: 'Sending',
    personal_data: 'Personal data',
    leaving_site: 'Leaving the site',
    download: 'Download',
    site_tool: 'Site tool',
    unjudged: 'Not checked',
  } satisfies Record<RiskKind, string>,
  done: 'Done',
  notDone: 'Not finished',
  copy: 'Copy',
  copied: 'Copied',
  error: 'Something went wrong',
  retry: 'Retry',
  runAgain: 'Run again',
  saveRecording: 'Save as recording',
  siteTasks: 'Tasks for this site',
  stopped: 'Stopped.',
  resumed: 'The page changed; the task goes on here.',
  dismiss: 'Dismiss',
  history: 'Earlier tasks on this site',
  paused: 'You have control. The agent waits until you resume.',
  working: 'The agent is working; the page is locked.',
  retrying: (s: number) => `Trying again in ${s} s`,
  you: 'You',
  agent: 'Agent',
};

export type Strings = typeof en;

const es: Strings = {
  title: 'pagehand',
  taskLabel: '¿Qué hago en esta página?',
  taskHint: 'Intro envía, Mayús+Intro añade una línea.',
  intro:
    'Dime qué hacer en esta página. Trabajo paso a paso y aquí muestro cada paso; puedes detenerme o tomar el control en cualquier momento, y te pregunto antes de algo arriesgado.',
  send: 'Enviar',
  sendWaiting: 'Enviando…',
  voiceStart: 'Dictar la tarea',
  voiceStop: 'Dejar de dictar',
  listening: 'Escuchando… Se detiene cuando haces una pausa, o pulsa de nuevo el micrófono.',
  voiceError: (code) =>
    code === 'not-allowed' || code === 'service-not-allowed'
      ? 'El micrófono no está permitido en esta página. Permítelo en el navegador, o escribe la tarea.'
      : code === 'no-speech'
        ? 'No se oyó nada. Pulsa el micrófono y habla, o escribe la tarea.'
        : code === 'audio-capture'
          ? 'No se encontró ningún micrófono. Escribe la tarea.'
          : `El dictado se detuvo (${code}). Inténtalo de nuevo, o escribe la tarea.`,
  waitingAgent: 'El agente aún se está cargando: tu tarea sale en cuanto llegue.',
  agentFailed: (why: string) =>
    `No se pudo cargar el agente, así que tu tarea no se envió (vuelve a estar en el cuadro). Recarga la página para intentarlo de nuevo. (${why})`,
  stop: 'Detener',
  takeOver: 'Tomar el control',
  resume: 'Reanudar',
  collapse: 'Minimizar',
  expand: 'Abrir pagehand',
  close: 'Cerrar',
  move: 'Mover el panel (flechas)',
  log: 'Pasos del agente',
  step: (k, max) => `Paso ${k} de ${max}`,
  tokens: (n) => `${n.toLocaleString('es')} tokens`,
  cost: (usd) => dollars(usd, 'es'),
  secrets: 'Valores que el agente puede escribir sin verlos',
  secretsHint: 'El agente lee <secret:nombre> y escribe el valor; el valor nunca sale de la página.',
  secretName: 'Nombre',
  secretValue: 'Valor',
  addSecret: 'Añadir un valor',
  removeSecret: 'Quitar',
  attach: 'Adjuntar archivos que el agente puede subir',
  attachShort: 'Adjuntar archivos',
  attached: 'Archivos adjuntos',
  removeFile: (name: string) => `Quitar ${name}`,
  thinking: 'Pensando…',
  details: 'Detalles',
  evaluation: 'Evaluación',
  memory: 'Memoria',
  nextGoal: 'Siguiente objetivo',
  result: 'Resultado',
  askTitle: 'El agente te pregunta',
  answer: 'Tu respuesta',
  confirmTitle: '¿Permitir esta acción?',
  action: 'Acción',
  element: 'Elemento',
  why: 'Por qué te lo pide',
  goal: 'Objetivo',
  allowIt: (kind) => `Permitir: ${kind.toLowerCase()}`,
  deny: 'No permitir',
  arming: 'Permitir funciona cuando esta tarjeta lleva un momento a la vista, sin nada encima.',
  allowKind: (kind) => `Permitir toda acción de tipo «${kind.toLowerCase()}» en esta tarea`,
  kinds: {
    payment: 'Pago',
    deletion: 'Borrado',
    sending: 'Envío',
    personal_data: 'Datos personales',
    leaving_site: 'Salir del sitio',
    download: 'Descarga',
    site_tool: 'Herramienta del sitio',
    unjudged: 'Sin comprobar',
  },
  done: 'Hecho',
  notDone: 'Sin terminar',
  copy: 'Copiar',
  copied: 'Copiado',
  error: 'Algo salió mal',
  retry: 'Reintentar',
  runAgain: 'Repetir',
  saveRecording: 'Guardar como grabación',
  siteTasks: 'Tareas de este sitio',
  stopped: 'Detenido.',
  resumed: 'La página cambió; la tarea sigue aquí.',
  dismiss: 'Cerrar aviso',
  history: 'Tareas anteriores en este sitio',
  paused: 'Tienes el control. El agente espera a que reanudes.',
  working: 'El agente está trabajando; la página está bloqueada.',
  retrying: (s) => `Reintento en ${s} s`,
  you: 'Tú',
  agent: 'Agente',
};

const tables: Record<Lang, Strings> = { en, es };

/** The `lang` option wins; else the browser's language; English for anything we lack. */
export function pickLang(option?: string, browser: string = typeof navigator === 'undefined' ? 'en' : navigator.language): Lang {
  const tag = (option || browser || 'en').toLowerCase();
  return tag.startsWith('es') ? 'es' : 'en';
}

export const strings = (lang: Lang): Strings => tables[lang];
