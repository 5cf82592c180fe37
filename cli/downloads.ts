/**
 * Downloads the run starts (each one a risky action the user allowed) are kept in a folder —
 * the working directory — under the name the site gives, never over an existing file. The
 * browser deletes an unsaved download when it closes, so the result waits for them (bounded).
 * Each one is also handed to the run (cli/download-handoff.ts), which reads small text files.
 */
import { access } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Download } from 'playwright-core';
import type { DownloadHandoff } from './download-handoff';
import type { Reporter } from './report';
import { safeForTerminal } from './terminal-text';

/** How long the result waits for downloads still being saved. */
const DOWNLOAD_WAIT_MS = 120_000;

/**
 * `dir/name`, or `dir/name (2)…` before the extension when that exists; never a path outside
 * dir, never a control character in the name (the site chose it; it is printed and listed later).
 */
export async function freePath(dir: string, suggested: string): Promise<string> {
  const name = basename(safeForTerminal(suggested).replace(/\\/g, '/')).replace(/^\.+/, '').trim() || 'download';
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; ; i++) {
    const path = join(dir, i === 1 ? name : `${stem} (${i})${ext}`);
    try {
      await access(path);
    } catch {
      return path;
    }
  }
}

export function downloadSaver(dir: string, report: Reporter, handoff?: DownloadHandoff) {
  const saving = new Set<Promise<void>>();
  return {
    save(d: Download): void {
      const id = handoff?.started(d);
      const p = (async () => {
        try {
          const path = await freePath(dir, d.suggestedFilename());
          await d.saveAs(path);
          report.note(`saved the download: ${path}`, { download: path, url: d.url() });
          if (id) await handoff!.saved(id, path).catch(() => undefined);
        } catch (e) {
          if (id) await handoff!.failed(id).catch(() => undefined);
          report.note(`the download ${d.suggestedFilename()} failed: ${String((e as Error)?.message ?? e).split('\n')[0]}`, { download: null, url: d.url() });
        }
      })();
      saving.add(p);
      void p.finally(() => saving.delete(p));
    },
    /** Resolves when every download in progress is saved (or failed), or after DOWNLOAD_WAIT_MS. */
    idle: (): Promise<unknown> => Promise.race([Promise.all([...saving]), new Promise((r) => setTimeout(r, DOWNLOAD_WAIT_MS).unref())]),
  };
}
