/**
 * Suggestion lists rendered at the end of <body> print right after the field they belong to
 * (aria-controls / aria-owns, else geometry), as options.
 */
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

const place = (field: string, list: string) => `<script>
  const r = document.querySelector('${field}').getBoundingClientRect();
  const l = document.querySelector('${list}');
  l.style.top = (r.bottom + scrollY + 2) + 'px'; l.style.left = r.left + 'px';
</script>`;

describe('suggestion lists', () => {
  it('prints the list a field controls right after the field, as options', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>#city-list{position:absolute;margin:0;padding:0;list-style:none;background:#fff;width:200px} #city-list li{cursor:pointer}</style><body>
      <form aria-label="Trip"><label>City <input id="city" aria-controls="city-list" aria-autocomplete="list"></label> <button>Go</button></form>
      <p>Other content</p>
      <a href="#x">Other link</a>
      <ul id="city-list"><li>Paris</li><li>Parma</li></ul>
      ${place('#city', '#city-list')}
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      'form "Trip"',
      '  *[1]textbox "City"',
      '  *[2]option "Paris"',
      '  *[3]option "Parma"',
      '  *[4]button "Go"',
      'Other content',
      '*[5]link "Other link"',
    ]);
  });

  it('leaves in place a list a plain filter field controls (not a popup)', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <input aria-label="Filter" aria-controls="results">
      <p>Intro</p>
      <ul id="results"><li><a href="#1">First result</a></li><li><a href="#2">Second result</a></li></ul>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['*[1]textbox "Filter"', 'Intro', '*[2]link "First result"', '*[3]link "Second result"']);
  });

  it('finds the list of a focused field by geometry when nothing links them', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>.sugg{position:absolute;background:#fff;width:240px} .sugg div{cursor:pointer;padding:2px}</style><body>
      <input id="q" aria-label="Search" style="margin:10px;width:240px">
      <button>Search</button>
      <p>Article text</p>
      <div class="sugg"><div>red shoes</div><div>red dress</div></div>
      ${place('#q', '.sugg')}
      <script>document.getElementById('q').focus()</script>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      '*[1]textbox "Search" focused',
      '*[2]option "red shoes"',
      '*[3]option "red dress"',
      '*[4]button "Search"',
      'Article text',
    ]);
  });
});
