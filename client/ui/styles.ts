/**
 * The overlay's stylesheet, adopted by its shadow root: constructed stylesheets are not
 * `<style>` elements, so a page CSP without 'unsafe-inline' does not strip them, and nothing
 * here can reach the page. `:host` rules are !important because a host page's !important
 * rules (`div { display: none !important }`, `* { all: unset }`) would otherwise win.
 */
export const CSS = `
:host{all:initial!important;position:fixed!important;inset:0 auto auto 0!important;width:0!important;height:0!important;z-index:2147483647!important;display:block!important;visibility:visible!important;opacity:1!important;transform:none!important;filter:none!important;contain:none!important;pointer-events:none!important}
.ph{--bg:#fff;--fg:#1b1e24;--mute:#5b6270;--line:#d9dde4;--soft:#f3f5f8;--acc:#1f5fd1;--acc-fg:#fff;--ok:#17753a;--bad:#b42318;--warn:#fff5d6;--focus:#1f5fd1;--shadow:0 8px 30px rgba(0,0,0,.22);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);color-scheme:light;-webkit-text-size-adjust:100%;text-align:start;letter-spacing:normal;word-spacing:normal;text-transform:none}
@media (prefers-color-scheme:dark){.ph:not(.light){--bg:#1c1f26;--fg:#e8eaef;--mute:#a7aebb;--line:#3a404c;--soft:#262a33;--acc:#7aa7ff;--acc-fg:#0d1424;--ok:#6fd08f;--bad:#ff8a80;--warn:#3b3320;--focus:#9cc0ff;color-scheme:dark}}
.ph.dark{--bg:#1c1f26;--fg:#e8eaef;--mute:#a7aebb;--line:#3a404c;--soft:#262a33;--acc:#7aa7ff;--acc-fg:#0d1424;--ok:#6fd08f;--bad:#ff8a80;--warn:#3b3320;--focus:#9cc0ff;color-scheme:dark}
*,*::before,*::after{box-sizing:border-box}
button,textarea,input,select{font:inherit;color:inherit;margin:0}
p{margin:0}
button{cursor:pointer;border:1px solid var(--line);background:var(--soft);border-radius:8px;padding:6px 12px;min-height:32px}
button:hover{border-color:var(--mute)}
button.primary{background:var(--acc);color:var(--acc-fg);border-color:var(--acc)}
button.danger{color:var(--bad)}
button:disabled{cursor:progress;opacity:.7}
button.icon{padding:0;width:32px;height:32px;display:inline-flex;align-items:center;justify-content:center;background:transparent;border-color:transparent}
button.icon:hover{background:var(--soft)}
button.mic{flex:none;border-color:var(--line)}
button.mic.on,button.mic.on:hover{background:var(--bad);border-color:var(--bad);color:var(--bg)}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
textarea{width:100%;resize:none;border:1px solid var(--line);border-radius:8px;padding:8px;background:var(--bg);min-height:60px;display:block}
.panel{position:fixed;pointer-events:auto;display:flex;flex-direction:column;background:var(--bg);border:1px solid var(--line);border-radius:12px;box-shadow:var(--shadow);overflow:hidden;resize:both;min-width:240px;min-height:200px;max-width:calc(100vw - 16px);max-height:calc(100vh - 16px);z-index:2}
header{display:flex;align-items:center;gap:6px;padding:6px;padding-inline-start:10px;border-bottom:1px solid var(--line);cursor:move;user-select:none;touch-action:none;flex:none}
header h2{font-size:15px;font-weight:650;margin:0;flex:1;display:flex;align-items:center;gap:8px}
.langs{flex:0 1 auto;min-width:0;max-width:9em;height:28px;padding:0 4px;border:1px solid var(--line);border-radius:8px;background:var(--bg);font-size:12.5px;cursor:pointer}
.dot{width:8px;height:8px;border-radius:50%;background:var(--mute)}
.dot.on{background:var(--ok);animation:pulse 1.2s ease-in-out infinite}
@keyframes pulse{50%{opacity:.35}}
.bar{padding:6px 12px;font-size:12.5px;color:var(--mute);border-bottom:1px solid var(--line);display:flex;gap:10px;flex-wrap:wrap;flex:none}
.banner{margin:8px 10px 0;padding:8px 10px;border-radius:8px;background:var(--warn);display:flex;gap:8px;align-items:center;flex:none}
.banner p{margin:0;flex:1}
.log{flex:1;overflow:auto;padding:8px 10px;display:flex;flex-direction:column;gap:8px;min-height:40px}
.task{font-weight:600;margin:0;padding:6px 10px;background:var(--soft);border-radius:8px;white-space:pre-wrap;overflow-wrap:anywhere}
.entry{margin:0;overflow-wrap:anywhere}
.entry .k{font-size:12px;color:var(--mute);font-weight:600}
.msg{white-space:pre-wrap}
.saw{color:var(--mute);font-size:13px;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.msg.agent{font-size:12.5px;color:var(--mute)}
.msg.user{align-self:flex-end;background:var(--soft);padding:6px 10px;border-radius:8px}
.err{color:var(--bad);font-size:13px}
.act{display:block;font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;padding:2px 0;overflow-wrap:anywhere}
.act.fail{color:var(--bad)}
.think{color:var(--mute);font-style:italic;white-space:pre-wrap;max-height:4.5em;overflow:hidden}
details{font-size:13px;color:var(--mute)}
summary{cursor:pointer;width:max-content}
dl{margin:4px 0 0;display:grid;grid-template-columns:max-content 1fr;gap:2px 8px}
dt{font-weight:600}
dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.card{margin:0 10px 8px;padding:10px;border:1px solid var(--line);border-radius:10px;background:var(--soft);display:flex;flex-direction:column;gap:8px;flex:none}
.card h3{margin:0;font-size:14px}
.card ul{margin:0;padding-inline-start:18px}
.card.confirm{border-color:var(--bad);border-width:2px;flex:0 1 auto;min-height:0;overflow:auto}
.confirm dd{max-height:6em;overflow:auto}
.confirm .ic{display:inline-block;width:1.2em;font-weight:700}
.confirm button.risk{background:var(--bad);color:var(--acc-fg);border-color:var(--bad);font-weight:600}
.confirm button.risk.wait{background:var(--soft);color:var(--mute);border:1px dashed var(--mute);cursor:not-allowed}
.confirm button.safe{background:var(--bg);border-color:var(--fg);font-weight:600}
.hint.off{visibility:hidden}
.card.ok h3{color:var(--ok)}
.card.bad h3{color:var(--bad)}
.card p{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:10em;overflow:auto}
.row{display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.card .md{max-height:min(22em,45vh);overflow:auto;display:flex;flex-direction:column;gap:6px;overflow-wrap:anywhere}
.card .md p{max-height:none;overflow:visible}
.md ul,.md ol{margin:0;padding-inline-start:1.4em}
.md li+li{margin-top:2px}
.md code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--bg);border-radius:4px;padding:0 3px}
.md pre{margin:0;padding:6px 8px;background:var(--bg);border-radius:6px;overflow:auto;white-space:pre}
.md pre code{padding:0}
.md table{border-collapse:collapse;font-size:13px}
.md th,.md td{border:1px solid var(--line);padding:3px 6px;text-align:start;vertical-align:top}
.md th{background:var(--bg)}
.md .center{text-align:center}
.md .right{text-align:end}
.md a{color:var(--acc)}
.md .addr{font-size:12px;color:var(--mute)}
.md .show{min-height:0;padding:0 6px;margin:0 2px;border-radius:10px;font-size:12px;color:var(--acc);background:var(--bg);border-color:var(--acc)}
.md .gone{font-size:12px;color:var(--bad);margin-inline-start:4px}
.rate{display:inline-flex;gap:2px;margin-inline-start:auto}
.rate svg.down{transform:rotate(180deg)}
.rate [aria-pressed=true]{background:var(--bg);border-color:var(--acc);color:var(--acc)}
.spot{position:fixed;pointer-events:none;border:3px solid var(--acc);border-radius:6px;box-shadow:0 0 0 4px rgba(31,95,209,.3);z-index:1;animation:pulse 1.2s ease-in-out 2}
.foot{padding:8px 10px 10px;border-top:1px solid var(--line);display:flex;flex-direction:column;gap:6px;flex:none}
.foot label{font-weight:600}
.hint{font-size:12px;color:var(--mute);margin:0}
.secrets>div{display:flex;flex-direction:column;gap:4px;margin:4px 0}
.secrets input{flex:1;min-width:0;border:1px solid var(--line);border-radius:6px;padding:4px 6px;background:var(--bg)}
.files{display:flex;align-items:center;flex-wrap:wrap;gap:6px;font-size:12.5px;margin-top:4px}
.files .attach{display:inline-flex;align-items:center;gap:4px;background:transparent;border-color:transparent;padding:2px 4px;min-height:24px;font-size:12.5px;color:var(--mute)}
.files .attach:hover{background:var(--soft)}
.files ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px;min-width:0}
.files li{display:flex;align-items:center;gap:2px;background:var(--soft);border-radius:6px;padding-inline-start:6px;max-width:100%}
.files li span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.intro{font-size:13.5px;line-height:1.5}
.thread{list-style:none;margin:0;padding:0 0 8px;display:flex;flex-direction:column;gap:8px;border-bottom:1px dashed var(--line)}
.thread li{display:flex;flex-direction:column;gap:6px}
.msg.model.bad{color:var(--mute)}
button.link{background:transparent;border-color:transparent;color:var(--acc);padding:2px 4px;min-height:28px;font-size:13px}
button.link:hover{text-decoration:underline;border-color:transparent}
.hist{font-size:13px}
.hist ul{list-style:none;margin:4px 0 0;padding:0;display:flex;flex-direction:column;gap:2px}
.hist button{width:100%;text-align:start;background:transparent;border-color:transparent;padding:4px 6px;min-height:28px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.hist button:hover{background:var(--soft)}
.sugg ul{flex-direction:row;flex-wrap:wrap;gap:6px}
.sugg button{width:auto;max-width:100%;border-color:var(--line);border-radius:16px;padding:4px 12px}
.launcher{position:fixed;pointer-events:auto;width:48px;height:48px;border-radius:50%;background:var(--acc);color:var(--acc-fg);border:none;box-shadow:var(--shadow);display:flex;align-items:center;justify-content:center;font-weight:700;font-size:18px;z-index:2}
.launcher .dot{position:absolute;top:4px;inset-inline-end:4px;border:2px solid var(--bg)}
.launcher.labelled{width:auto;max-width:min(320px,calc(100vw - 24px));border-radius:24px;padding:0;padding-inline:12px 18px;gap:8px;font-size:15px;font-weight:600}
.launcher .lt{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.launcher svg{flex:none}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.mask{position:fixed;inset:0;pointer-events:auto;background:rgba(20,30,60,.08);cursor:not-allowed;z-index:1;box-shadow:inset 0 0 0 3px var(--acc)}
.hl{position:fixed;border:2px solid var(--acc);border-radius:4px;background:rgba(31,95,209,.12);transition:all .25s ease}
.cap{position:absolute;left:-2px;bottom:calc(100% + 4px);background:var(--acc);color:var(--acc-fg);font-size:12px;padding:2px 6px;border-radius:4px;white-space:nowrap;max-width:60vw;overflow:hidden;text-overflow:ellipsis}
.cap.below{bottom:auto;top:calc(100% + 4px)}
.ptr{position:fixed;left:0;top:0;width:22px;height:22px;transition:transform .45s cubic-bezier(.2,.8,.2,1);filter:drop-shadow(0 1px 2px rgba(0,0,0,.5))}
.lock{position:fixed;left:50%;top:10px;transform:translateX(-50%);background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:999px;padding:4px 12px;font-size:12.5px;box-shadow:var(--shadow);max-width:calc(100vw - 20px);text-align:center}
@media (prefers-reduced-motion:reduce){*,*::before,*::after{transition:none!important;animation:none!important}}
`;

let sheet: CSSStyleSheet | undefined;

/** Adopts the stylesheet into a shadow root (one constructed sheet shared by every root). */
export function adoptStyles(root: ShadowRoot): void {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
