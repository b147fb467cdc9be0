import type { Product } from '@svc/core';

/**
 * Hostile text a model (or a compromised catalogue) might put in a reply. Each payload, if it ever ran, sets
 * `window.__xss` to its own number (or opens a dialog), so a failure names the payload that got through.
 */
const CONTENT: ((n: number) => string)[] = [
  (n) => `<script>window.__xss=${n}</script>`,
  (n) => `<img src=x onerror="window.__xss=${n}">`,
  (n) => `<svg onload="window.__xss=${n}"></svg>`,
  (n) => `<svg><script>window.__xss=${n}</script></svg>`,
  (n) => `<iframe srcdoc="<script>parent.__xss=${n}</script>"></iframe>`,
  (n) => `<iframe src="javascript:parent.__xss=${n}"></iframe>`,
  (n) => `<object data="javascript:window.__xss=${n}"></object>`,
  (n) => `<embed src="javascript:window.__xss=${n}">`,
  (n) => `[markdown link](javascript:window.__xss=${n})`,
  (n) => `[mixed case](JaVaScRiPt:window.__xss=${n})`,
  (n) => `[tab inside](java\tscript:window.__xss=${n})`,
  (n) => `[leading space]( javascript:window.__xss=${n})`,
  (n) => `[entity scheme](&#106;avascript:window.__xss=${n})`,
  (n) => `[colon entity](javascript&colon;window.__xss=${n})`,
  (n) => `<a href="jav&#x09;ascript:window.__xss=${n}">entity tab link</a>`,
  (n) => `<a href="javascript:window.__xss=${n}">html link</a>`,
  // <script>parent.__xss="data-link"</script>
  () => '[data url](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9ImRhdGEtbGluayI8L3NjcmlwdD4=)',
  (n) => `<a href="data:text/html,<script>parent.__xss=${n}</script>">data link</a>`,
  (n) => `[vbscript](vbscript:msgbox(${n}))`,
  (n) => `![markdown image](x" onerror="window.__xss=${n})`,
  (n) => `![markdown image](javascript:window.__xss=${n})`,
  () => '![svg image](data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0icGFyZW50Ll9feHNzPTEiLz4=)',
  (n) => `<div style="background:url(javascript:window.__xss=${n})">style url</div>`,
  (n) => `<p style="width: expression(window.__xss=${n})">css expression</p>`,
  (n) => `<style>@import 'javascript:window.__xss=${n}'; * { display: none }</style>`,
  (n) => `<details open ontoggle="window.__xss=${n}">details</details>`,
  (n) => `<body onload="window.__xss=${n}">`,
  (n) => `<input autofocus onfocus="window.__xss=${n}">`,
  (n) => `<video><source onerror="window.__xss=${n}"></video>`,
  (n) => `<math><mi xlink:href="javascript:window.__xss=${n}">math link</mi></math>`,
  (n) => `<svg><a xlink:href="javascript:window.__xss=${n}"><text y="20">svg link</text></a></svg>`,
  (n) => `<form action="javascript:window.__xss=${n}"><button>form</button></form>`,
  (n) => `<base href="javascript:window.__xss=${n}//">`,
  (n) => `<meta http-equiv="refresh" content="0;url=javascript:window.__xss=${n}">`,
  (n) => `"><img src=x onerror=window.__xss=${n}>`,
  (n) => `<scr<script>ipt>window.__xss=${n}</scr</script>ipt>`,
  (n) => `&lt;script&gt;window.__xss=${n}&lt;/script&gt; and &#60;img src=x onerror=window.__xss=${n}&#62;`,
  (n) => `**<img src=x onerror=window.__xss=${n}>** in bold`,
  (n) => `\`<script>window.__xss=${n}</script>\` in code`,
  (n) => `\`\`\`html\n<script>window.__xss=${n}</script>\n\`\`\``,
  (n) => `# <img src=x onerror=window.__xss=${n}> heading`,
  (n) => `- <svg onload=window.__xss=${n}> in a list`,
  (n) => `[quote breakout](https://ok.example/"onmouseover="window.__xss=${n})`,
  (n) => `<javascript:window.__xss=${n}>`,
  (n) => `https://example.com/<script>window.__xss=${n}</script>`,
  (n) => `[fine](https://example.com)<img src=x onerror=window.__xss=${n}>`,
  (n) => `<img src=x onerror=alert(${n})>`,
  (n) => `[alert](javascript:alert(${n}))`,
];

export const XSS_CONTENT_PAYLOADS: readonly string[] = CONTENT.map((payload, i) => payload(i + 1));

/** One reply holding every payload, a paragraph each. */
export const XSS_MARKDOWN = XSS_CONTENT_PAYLOADS.join('\n\n');

/** Hostile values for a product's URL and image: none may become an `href` or `src`. */
const BAD_URLS: readonly string[] = [
  'javascript:window.__xss=101',
  'JAVASCRIPT:window.__xss=102',
  ' javascript:window.__xss=103',
  'java\tscript:window.__xss=104',
  'jav&#x09;ascript:window.__xss=105',
  'data:text/html,<script>parent.__xss=106</script>',
  'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="parent.__xss=107"/>',
  'vbscript:msgbox(108)',
  'x" onerror="window.__xss=109',
  '//evil.example/x.png',
];

/**
 * Products whose every text field carries markup and whose URL and image are hostile. The last one is a normal
 * product, so the checks also see what a safe product renders (a link and an image) and do not pass vacuously.
 */
export const XSS_PRODUCTS: Product[] = [
  ...BAD_URLS.map((url, i) => ({
    id: `xss_${i}`,
    name: XSS_CONTENT_PAYLOADS[i % XSS_CONTENT_PAYLOADS.length]!,
    description: XSS_CONTENT_PAYLOADS[(i + 10) % XSS_CONTENT_PAYLOADS.length]!,
    price: 10 + i,
    currency: i % 2 ? 'USD' : `"><img src=x onerror=window.__xss=${200 + i}>`,
    url,
    imageUrl: BAD_URLS[(i + 1) % BAD_URLS.length]!,
  })),
  {
    id: 'xss_safe',
    name: 'A safe product <b>bold?</b>',
    description: 'Plain <i>text</i>',
    price: 42,
    currency: 'USD',
    url: 'https://shop.example/products/safe',
    imageUrl: 'http://127.0.0.1:9/safe.png',
  },
];
