export interface EmbedOptions {
  /** The service's base URL: the page loads `<api>/widget.js` from there. */
  api: string;
  apiKey: string;
  /** The script tag's `onload` (spec 4.9: the page starts the widget from the script's load event). */
  onload?: string;
  /** `data-identity-endpoint`, a path on the page's own origin. */
  identityEndpoint?: string;
  /** The page's own stylesheet. */
  css?: string;
  /** Page script run before widget.js loads (defines what `onload` calls). */
  script?: string;
  /** `data-consent` (`required`: nothing in storage before the visitor opens the chat or consent is given). */
  consent?: string;
}

const attr = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A site's page embedding the widget with one script tag, as the widget's README shows. */
export function embedPage(options: EmbedOptions): string {
  const endpoint =
    (options.identityEndpoint ? ` data-identity-endpoint="${attr(options.identityEndpoint)}"` : '') +
    (options.consent ? ` data-consent="${attr(options.consent)}"` : '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shop</title>
<style>${options.css ?? 'body { margin: 0; font-family: sans-serif; }'}</style>
<script>${options.script ?? ''}</script>
</head>
<body>
<h1>Northwind Outfitters</h1>
<p>Gear for every trail.</p>
<script src="${attr(options.api)}/widget.js" data-api-key="${attr(options.apiKey)}"${endpoint} async onload="${attr(options.onload ?? 'Svc.bubble({})')}"></script>
</body>
</html>
`;
}

/**
 * A page whose stylesheet does its worst to everything it can reach: global resets with `!important`, borders
 * and display on common elements, inherited text properties, and rules for the elements the widget is made of.
 * It themes nothing through the widget's own channels (`::part`, `--svc-*` variables), which a page may use.
 */
export const HOSTILE_CSS = `
* {
  all: unset !important;
  font: italic 700 30px/3 serif !important;
  color: red !important;
  box-sizing: content-box !important;
  letter-spacing: 4px !important;
  word-spacing: 12px !important;
  text-transform: uppercase !important;
  text-align: right !important;
  text-indent: 20px !important;
  text-shadow: 2px 2px lime !important;
  white-space: nowrap !important;
  cursor: wait !important;
}
html { font-size: 40px !important; background: white !important; }
head, style, script { display: none !important; }
body { display: block !important; margin: 0 !important; }
div, button, input { display: inline !important; border: 5px solid lime !important; }
div, section, header, form, p, span, b, i, a, svg, path, h2, textarea, button, input, select, label, img, article {
  padding: 11px !important; margin: 7px !important; background: yellow !important; width: 13px !important;
  height: 13px !important; position: static !important; opacity: 0.5 !important; transform: rotate(3deg) !important;
  fill: red !important; stroke: blue !important; visibility: visible !important; border-radius: 0 !important;
}
[hidden] { display: block !important; }
[part], [data-testid], .panel, .launcher, .messages, .message, .composer { display: none !important; }
`;
