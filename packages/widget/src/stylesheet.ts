/**
 * Styles go into the shadow root as constructed stylesheets (`adoptedStyleSheets`): a page whose CSP has a strict
 * `style-src` blocks `<style>` elements, not stylesheets built through the CSSOM. A browser without constructable
 * stylesheets gets a `<style>` element instead.
 */
export function adoptStyles(shadow: ShadowRoot, css: string): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = css;
    shadow.prepend(style);
  }
}
