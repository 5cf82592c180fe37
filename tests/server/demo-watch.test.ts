/** The "Watch it work" bar (server/node/demo-watch.ts): the shipped recordings, a hostile one, a broken one. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { recordingProblem } from '../../common/recording';
import { watchItWork } from '../../server/node/demo-watch';

const demo = (name: string) => readFile(new URL(`../../server/demo/${name}.recording.json`, import.meta.url), 'utf8');
/** The recording the bar's script would read back, as the browser's parser would cut it out. */
const embedded = (html: string): unknown => JSON.parse(/<script type="application\/json" id="pagehand-watch-recording">([\s\S]*?)<\/script>/.exec(html)![1]!);

describe('watchItWork', () => {
  it.each(['todo-list', 'contact-form'])('the shipped %s recording is one pagehand replays, embedded whole', async (name) => {
    const json = await demo(name);
    expect(recordingProblem(JSON.parse(json))).toBeUndefined();
    const html = watchItWork(json);
    expect(html).toContain('id="pagehand-watch-button"');
    expect(embedded(html)).toEqual(JSON.parse(json));
  });

  it('a task that tries to close the script element stays data: escaped in the text, inert in the JSON', () => {
    const hostile = { pagehand: 'recording', v: 1, task: 'Hi </script><script>alert(1)</script> <b>x</b>', url: '/demo/x.html', steps: [] };
    const html = watchItWork(JSON.stringify(hostile));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(embedded(html)).toEqual(hostile);
  });

  it('a file that is not a recording shows no bar (the page still loads)', () => {
    expect(watchItWork('{ not json')).toBe('');
    expect(watchItWork(JSON.stringify({ pagehand: 'recording', v: 2, task: 'x', url: '/', steps: [] }))).toBe('');
  });
});
