/**
 * Targets inside targets, listener-only targets, hints for unnamed targets, tree items without
 * ARIA, and `map().elements` matching the printed lines.
 */
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';

describe('targets', () => {
  it('lists icon-only targets nested inside a clickable row, each with the best name there is', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>
        .row{cursor:pointer;display:flex;gap:8px;align-items:center;padding:4px;width:300px}
        .hitarea{width:16px;height:16px;background:url(${GIF}) no-repeat}
        .chip{cursor:pointer;display:inline-block;border:1px solid;padding:2px 6px;margin:4px}
        .ico{display:inline-block;width:16px;height:16px;background-image:url(${GIF})}
      </style><body>
      <div id="tree"><div class="row"><div class="hitarea expandable-hitarea"></div><span>Documents</span></div></div>
      <div><span class="chip" onclick="void 0">Python <span title="Remove Python">×</span></span>
      <span class="chip" onclick="void 0">Rust <span>×</span></span></div>
      <div class="row" onclick="void 0"><span>Invoice 42</span><span class="kebab"><svg width="16" height="16"><circle cx="8" cy="8" r="2"/></svg></span></div>
      <div class="row" onclick="void 0"><span>Report</span><span class="ico"></span></div>
      <div class="row" onclick="void 0"><span>Draft</span><span class="menu-icon"><svg width="16" height="16"><title>More actions</title><circle cx="8" cy="8" r="2"/></svg></span></div>
      <div class="row" onclick="void 0"><svg width="16" height="16"><circle cx="8" cy="8" r="4"/></svg><span>Settings</span></div>
      <div class="row" onclick="void 0"><div style="width:40px;height:40px;border-radius:50%;background-image:url(${GIF})"></div><span>Ana Pérez</span></div>
      <script>document.getElementById('tree').addEventListener('click', () => {})</script>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      '*[1]clickable "Documents"',
      '*[2]clickable ~expand before "Documents"',
      '*[3]clickable "Python ×"',
      '*[4]clickable "Remove Python"',
      '*[5]clickable "Rust ×"',
      '*[6]clickable "×" ~after "Rust"',
      '*[7]clickable "Invoice 42"',
      '*[8]clickable ~kebab after "Invoice 42"',
      '*[9]clickable "Report"',
      '*[10]clickable ~after "Report"',
      '*[11]clickable "Draft More actions"',
      '*[12]clickable "More actions"',
      // A decorative icon without any cue, or an avatar, stays part of its row.
      '*[13]clickable "Settings"',
      '*[14]clickable "Ana Pérez"',
    ]);
  });

  it('lists listener-only targets with short text of their own at document start; never body, document or large containers', async () => {
    const html = `<!doctype html><title>t</title><body>
      <div id="a">Open details</div>
      <section id="big" style="height:500px"><p>${'A long paragraph of article text. '.repeat(4)}</p><p>More text</p></section>
      <div id="l" style="cursor:pointer">listener</div>
      <div id="n" tabindex="0">listener and tabindex</div>
      <div id="w">Buy <button>Now</button></div>
      <script>
        for (const id of ['a', 'big', 'l', 'n', 'w']) document.getElementById(id).addEventListener('click', () => {});
        document.addEventListener('click', () => {});
        document.body.addEventListener('mousedown', () => {});
      </script>
    </body>`;
    const early = await open(s, html, { early: true });
    const long = 'A long paragraph of article text. '.repeat(4).trim();
    expect(await mapBody(early)).toEqual([
      '*[1]clickable "Open details"',
      long,
      'More text',
      '*[2]clickable "listener"',
      '*[3]clickable "listener and tabindex"',
      // A listener on an element that holds a target of its own is delegation.
      'Buy',
      '*[4]button "Now"',
    ]);
    const late = await open(s, html);
    expect(await mapBody(late)).toEqual(['Open details', long, 'More text', '*[1]clickable "listener"', 'listener and tabindex', 'Buy', '*[2]button "Now"']);
  });

  it('lists pointer items with their own text inside a pointer wrapper (custom select lists)', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>
        .wrap{cursor:pointer;width:200px;border:1px solid;position:relative}
        .items{position:absolute;top:100%;left:0;right:0;background:#fff}
        .items ul{list-style:none;margin:0;padding:0}
        .items li{cursor:pointer;padding:2px}
      </style><body>
      <div class="selectric-wrapper wrap">
        <div class="selectric"><span class="label">Small</span> <b class="button">▾</b></div>
        <div class="items"><ul><li class="selected">Small</li><li>Medium</li><li>Large</li><li>X-Large</li></ul></div>
      </div>
      <script>document.querySelector('.wrap').addEventListener('click', () => {})</script>
    </body>`,
    );
    const body = await mapBody(page);
    expect(body).toHaveLength(5);
    expect(body[0]).toMatch(/^\*\[1\]clickable /);
    expect(body.slice(1)).toEqual(['*[2]listitem "Small"', '*[3]listitem "Medium"', '*[4]listitem "Large"', '*[5]listitem "X-Large"']);
  });

  it('does not list items that hold a target of their own (a menu of links) as list items', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <ul style="list-style:none"><li style="cursor:pointer;position:relative">Products
        <ul style="position:absolute;top:100%;left:0"><li><a href="#shoes">Shoes</a></li><li><a href="#hats">Hats</a></li></ul>
      </li></ul>
    </body>`,
    );
    // The item is named by its own line: its nested menu's links are listed apart.
    expect(await mapBody(page)).toEqual(['*[1]listitem "Products" expanded', '*[2]link "Shoes"', '*[3]link "Hats"']);
  });

  it('reads a list item whose nested list is hidden as collapsed, and expanded when shown', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <ul>
        <li><span style="cursor:pointer">Documents</span><ul style="display:none"><li><a href="#a">a.txt</a></li></ul></li>
        <li><span style="cursor:pointer">Pictures</span><ul><li><a href="#b">b.png</a></li></ul></li>
        <li><a href="#c">c.md</a></li>
      </ul>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['*[1]clickable "Documents" collapsed', '*[2]clickable "Pictures" expanded', '*[3]link "b.png"', '*[4]link "c.md"']);
    await page.evaluate(() => {
      (document.querySelector('ul ul') as HTMLElement).style.display = 'block';
    });
    expect((await mapBody(page)).slice(0, 2)).toEqual(['[1]clickable "Documents" expanded', '*[5]link "a.txt"']);
  });
});

describe('hints for unnamed targets', () => {
  it('prints a hint marked ~ where a target has no name; describe() keeps the spec name', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <a href="/mes-commandes"><svg width="20" height="20"><path d="M0 0h20v20z"/></svg></a>
      <button><i class="fa fa-bars" style="display:inline-block;width:14px;height:14px"></i></button>
      <a href="#" class="icon-user" style="display:inline-block;width:20px;height:20px"></a>
      <button><svg width="16" height="16"><use href="#icon-search"/></svg></button>
      <a href="/"><img src="/static/img/logo.svg" width="40" height="20"></a>
      <button id="hamburger-toggle" style="width:30px;height:20px"></button>
      <form role="search" action="/find"><input name="q" aria-label="Query"><button style="width:30px;height:20px"></button></form>
      <svg style="display:none"><symbol id="icon-search"><path d="M0 0h16v16z"/></symbol></svg>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      '*[1]link ~/mes-commandes',
      // An icon's own name: its library's prefix taken off.
      '*[2]button ~bars',
      '*[3]link ~user',
      '*[4]button ~search',
      '*[5]link ~logo.svg',
      '*[6]button ~hamburger-toggle',
      'form',
      '  *[7]textbox "Query"',
      '  *[8]button ~search',
    ]);
    const r = await page.evaluate(() => {
      const ph = (window as any).pagehand;
      const map = ph.map();
      return { first: map.elements[0], described: ph.describe(document.querySelector('a')) };
    });
    expect(r.described).toEqual({ role: 'link', name: '' });
    expect(r.first).toMatchObject({ role: 'link', name: '', hint: '/mes-commandes' });
  });

  it('map().elements carry what the line shows: role clickable, the shown name, the hint', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <div style="cursor:pointer">--</div>
      <div class="row" style="cursor:pointer;display:flex;width:200px"><span>Report</span><span class="close-btn" style="display:inline-block;width:16px;height:16px"></span></div>
    </body>`,
    );
    const map = await page.evaluate(() => (window as any).pagehand.map());
    expect(map.text).toContain('[1]clickable "--"');
    expect(map.text).toContain('[3]clickable ~close after "Report"');
    expect(map.elements.map((e: any) => ({ role: e.role, name: e.name, hint: e.hint }))).toEqual([
      { role: 'clickable', name: '--', hint: undefined },
      { role: 'clickable', name: 'Report', hint: undefined },
      { role: 'clickable', name: '', hint: 'close after "Report"' },
    ]);
  });
});
