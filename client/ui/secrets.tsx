/**
 * The task box's "values the agent may type but not see": name and value pairs (the value in a
 * password field) that the next run gets as `secrets`. Uncontrolled fields read when the task
 * is sent; they are empty again after the run (the panel keeps no value once it is sent, except
 * for Retry of that run).
 */
import { useRef, useState } from 'preact/hooks';
import type { Strings } from './i18n';

/** The filled-in pairs (both name and value given), or undefined when there are none. */
export function readSecrets(box: HTMLElement | null): Record<string, string> | undefined {
  if (!box) return undefined;
  const out: Record<string, string> = {};
  for (const row of Array.from(box.querySelectorAll('[data-secret-row]'))) {
    const name = (row.querySelector('[data-secret-name]') as HTMLInputElement | null)?.value.trim() ?? '';
    const value = (row.querySelector('[data-secret-value]') as HTMLInputElement | null)?.value ?? '';
    if (name && value) out[name] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

export function SecretsBox({ t, boxRef }: { t: Strings; boxRef: { current: HTMLDivElement | null } }) {
  const [rows, setRows] = useState<number[]>([0]);
  const next = useRef(1);
  return (
    <details class="secrets" data-secrets>
      <summary>{t.secrets}</summary>
      <p class="hint">{t.secretsHint}</p>
      <div ref={boxRef}>
        {rows.map((id, i) => (
          <div class="row" key={id} data-secret-row>
            <label class="sr" for={`ph-secret-name-${id}`}>
              {t.secretName}
            </label>
            <input id={`ph-secret-name-${id}`} data-secret-name placeholder={t.secretName} autocomplete="off" spellcheck={false} size={8} />
            <label class="sr" for={`ph-secret-value-${id}`}>
              {t.secretValue}
            </label>
            <input id={`ph-secret-value-${id}`} data-secret-value type="password" placeholder={t.secretValue} autocomplete="off" size={12} />
            {rows.length > 1 && (
              <button type="button" class="icon" aria-label={t.removeSecret} title={t.removeSecret} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                <span aria-hidden="true">×</span>
              </button>
            )}
          </div>
        ))}
      </div>
      <button type="button" onClick={() => setRows([...rows, next.current++])} data-add-secret>
        {t.addSecret}
      </button>
    </details>
  );
}
