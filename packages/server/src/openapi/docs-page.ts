import { DOCS_SCRIPT } from './docs-script.js';

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2330; --muted: #5d6475; --bg: #fff; --panel: #f5f6fa; --line: #dde1ea; --accent: #4f46e5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ef; --muted: #a2a9b9; --bg: #14161c; --panel: #1d2029; --line: #2e3340; --accent: #8b87f5; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); display: grid; grid-template-columns: 260px 1fr; min-height: 100vh; }
nav { position: sticky; top: 0; height: 100vh; overflow: auto; padding: 16px; border-right: 1px solid var(--line); background: var(--panel); font-size: 14px; }
nav ul { list-style: none; padding: 0; margin: 0 0 12px; } nav li { margin: 4px 0; } nav h3 { font-size: 13px; text-transform: uppercase; color: var(--muted); margin: 16px 0 6px; }
main { padding: 24px 32px 64px; max-width: 980px; }
a { color: var(--accent); } code, pre, textarea, input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
code { background: var(--panel); padding: 1px 4px; border-radius: 4px; }
h1 small { font-size: 14px; color: var(--muted); font-weight: normal; }
.muted, .constraints { color: var(--muted); } .constraints { font-size: 12px; }
.auth { display: grid; grid-template-columns: 1fr 1fr auto; gap: 12px; align-items: end; padding: 12px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; margin: 6px 0; } label span { color: var(--muted); }
input, textarea { width: 100%; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
details.op { border: 1px solid var(--line); border-radius: 8px; margin: 10px 0; padding: 0 14px; }
details.op[open] { padding-bottom: 14px; } summary { cursor: pointer; padding: 10px 0; display: flex; gap: 10px; align-items: center; }
.method { font: bold 11px/1 ui-monospace, monospace; padding: 4px 6px; border-radius: 4px; color: #fff; background: #475569; min-width: 42px; text-align: center; display: inline-block; }
.method.get { background: #1d4ed8; } .method.post { background: #047857; } .method.put { background: #b45309; } .method.delete { background: #b91c1c; }
.path { background: none; font-weight: 600; } .summary { color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 14px; } th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 6px 8px; vertical-align: top; }
.required { font-size: 11px; color: #b91c1c; margin-left: 6px; }
.schema ul { margin: 4px 0; padding-left: 18px; } .schema li { margin: 3px 0; } .prop { font-weight: 600; }
.response { margin: 8px 0; } .status { font: bold 12px ui-monospace, monospace; padding: 2px 6px; border-radius: 4px; background: var(--panel); }
.status.s2 { color: #047857; } .status.s4 { color: #b45309; } .status.s5 { color: #b91c1c; }
button { padding: 7px 14px; border: 0; border-radius: 6px; background: var(--accent); color: #fff; font-weight: 600; cursor: pointer; margin-top: 6px; }
.output { background: var(--panel); padding: 10px; border-radius: 6px; white-space: pre-wrap; word-break: break-word; min-height: 1em; }
.error { color: #b91c1c; }
@media (max-width: 800px) { body { grid-template-columns: 1fr; } nav { position: static; height: auto; } .auth { grid-template-columns: 1fr; } }
`;

/** JSON for a `<script type="application/json">`: `<` escaped, so no value can close the element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * A self-contained, interactive API reference: one HTML page with its style and script inline, no CDN and no
 * external resource, that loads the OpenAPI document from `specUrl` and renders its endpoints by tag, their
 * parameters, bodies, responses and schemas, with a form to try each endpoint with `fetch`. A relative
 * `specUrl` (such as `openapi.json`) keeps working when the API is mounted under a path.
 *
 * @example
 * app.get('/docs', (c) => c.html(docsPageHtml('openapi.json')));
 */
export function docsPageHtml(specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>API reference</title>
<style>${STYLE}</style>
</head>
<body>
<nav id="nav" aria-label="Endpoints"></nav>
<main id="main"></main>
<script type="application/json" id="svc-docs-config">${inlineJson({ specUrl })}</script>
<script>${DOCS_SCRIPT}</script>
</body>
</html>
`;
}
