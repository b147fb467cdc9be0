/**
 * `bubbleIcon` may be inline SVG markup. It is parsed as XML (which never runs scripts), reduced to drawing
 * elements and attributes, then imported into the page; it never goes through `innerHTML`. Anything that can run
 * code or load something — script, foreignObject, event handlers, external or `javascript:` references,
 * animation elements that could rewrite an attribute — is dropped.
 */
const SVG_NS = 'http://www.w3.org/2000/svg';
const DRAWING = 'svg g path circle ellipse line polyline polygon rect defs title desc lineargradient radialgradient stop clippath mask'.split(' ');

function unsafeAttribute(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  const squeezed = value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
  if (lower.startsWith('on')) return true;
  if ((lower === 'href' || lower.endsWith(':href') || lower === 'src') && !value.trim().startsWith('#')) return true;
  return squeezed.includes('javascript:');
}

function clean(element: Element): void {
  for (const attribute of [...element.attributes]) {
    if (unsafeAttribute(attribute.name, attribute.value)) element.removeAttribute(attribute.name);
  }
  for (const child of [...element.children]) {
    if (child.namespaceURI !== SVG_NS || !DRAWING.includes(child.localName.toLowerCase())) child.remove();
    else clean(child);
  }
}

/** A safe copy of the SVG, owned by this document; null when the markup is not an SVG document. */
export function sanitizeSvg(markup: string): SVGSVGElement | null {
  try {
    const doc = new DOMParser().parseFromString(markup, 'image/svg+xml');
    const root = doc.documentElement;
    if (root.localName !== 'svg' || root.namespaceURI !== SVG_NS || doc.getElementsByTagName('parsererror').length > 0) {
      return null;
    }
    clean(root);
    const svg = document.importNode(root, true) as unknown as SVGSVGElement;
    svg.setAttribute('aria-hidden', 'true');
    return svg;
  } catch {
    return null;
  }
}
