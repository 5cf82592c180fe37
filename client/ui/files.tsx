/**
 * The task box's paperclip: files the user attaches for the next run (`upload` may put them into
 * the page; the model sees only their names, types and sizes). They come only from the
 * browser's own file picker, opened by the user's own click: a page script can neither open it
 * nor hand the panel a file (a synthetic click or change is not the user's input).
 */
import { useRef } from 'preact/hooks';
import type { Strings } from './i18n';
import { fileSize } from './format';
import { isUserInput, onUserInput } from './trusted';

export function FilesBox({ t, files, setFiles }: { t: Strings; files: File[]; setFiles(f: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  const picked = (e: Event): void => {
    const el = e.currentTarget as HTMLInputElement;
    if (!isUserInput(e) || !el.files) return;
    // The same name twice keeps the newer one: upload names files by name.
    const byName = new Map(files.map((f) => [f.name, f]));
    for (const f of Array.from(el.files)) byName.set(f.name, f);
    setFiles([...byName.values()]);
    el.value = '';
  };
  return (
    <div class="files" data-files>
      <input ref={input} type="file" multiple hidden tabIndex={-1} aria-hidden="true" onChange={picked} data-file-input />
      <button type="button" class="attach" title={t.attach} onClick={onUserInput(() => input.current?.click())} data-attach>
        <svg
          width="14"
          height="14"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          stroke-width="2"
          stroke-linecap="round"
          stroke-linejoin="round"
          aria-hidden="true"
        >
          <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4l7.9-7.9" />
        </svg>
        {t.attachShort}
      </button>
      {files.length > 0 && (
        <ul aria-label={t.attached}>
          {files.map((f) => (
            <li key={f.name} data-file>
              <span data-file-name dir="auto">{`${f.name} (${fileSize(f.size, t.locale)})`}</span>
              <button
                type="button"
                class="icon"
                aria-label={t.removeFile(f.name)}
                title={t.removeFile(f.name)}
                onClick={() => setFiles(files.filter((x) => x !== f))}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
