const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A sample shop page embedding the widget the way a site would: one script tag, then `Svc.bubble()`. */
export function demoPageHtml(options: { publicKey: string; origin: string }): string {
  const key = escapeHtml(options.publicKey);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Outfitters · Svc Conversations demo</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; color: #1f2937; background: #f8fafc; }
  header { background: #14532d; color: #fff; padding: 24px 32px; }
  header h1 { margin: 0; font-size: 28px; }
  main { max-width: 960px; margin: 0 auto; padding: 32px; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 16px; }
  .card { background: #fff; border-radius: 12px; padding: 16px; box-shadow: 0 1px 3px rgba(0,0,0,.1); }
  .card h2 { font-size: 17px; margin: 0 0 8px; }
  .price { font-weight: 700; color: #14532d; }
  code { background: #e2e8f0; padding: 2px 6px; border-radius: 4px; }
</style>
</head>
<body>
<header><h1>Northwind Outfitters</h1><p>Gear for every trail · a demo shop for Svc Conversations</p></header>
<main>
  <p>Open the chat bubble in the corner and ask about shipping to Canada, returns, tents, or say <em>talk to sales</em>.</p>
  <div class="grid">
    <div class="card"><h2>Trailhead 2 Backpacking Tent</h2><p class="price">$249.00</p></div>
    <div class="card"><h2>Basecamp 4 Family Tent</h2><p class="price">$429.00</p></div>
    <div class="card"><h2>Summit Down Sleeping Bag</h2><p class="price">$319.00</p></div>
  </div>
  <p>This page embeds the widget with <code>&lt;script src="/widget.js" data-api-key="pk_live_…" async&gt;</code>.</p>
</main>
<script src="/widget.js" data-api-key="${key}" async onload="Svc.bubble({})"></script>
</body>
</html>
`;
}
