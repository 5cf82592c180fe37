/**
 * Where fixture pages report what they saw or did (`fetch(report, { method: 'POST', body })`,
 * `{ kind, page, data }` as JSON): a server on 127.0.0.1 that keeps each report, with its body
 * as received (`raw`), for the test to read. The pages learn its URL from their query string.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Report {
  kind: string;
  page: string;
  data: any;
  /** The body as it arrived. */
  raw: string;
}

export interface ReportCollector {
  /** What pages POST to. */
  url: string;
  /** The reports since the last `clear()`, in arrival order. */
  reports(): Report[];
  clear(): void;
  close(): Promise<void>;
}

export async function startReportCollector(): Promise<ReportCollector> {
  let reports: Report[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      try {
        reports.push({ ...JSON.parse(body), raw: body });
      } catch {
        reports.push({ kind: 'unparsed', page: '', data: body, raw: body });
      }
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/report`,
    reports: () => reports,
    clear: () => {
      reports = [];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A collector for a test file: started before its tests, emptied before each, closed after. */
export function useReportCollector(): { readonly url: string; reports(): Report[] } {
  let collector: ReportCollector | undefined;
  beforeAll(async () => {
    collector = await startReportCollector();
  });
  afterAll(async () => {
    await collector?.close();
  });
  beforeEach(() => {
    collector?.clear();
  });
  return {
    get url() {
      return collector!.url;
    },
    /** What the pages reported since this test began. */
    reports: () => collector!.reports(),
  };
}
