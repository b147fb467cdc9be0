import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './svg-icon.js';

describe('bubbleIcon SVG sanitising', () => {
  it('keeps the drawing', () => {
    const svg = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g fill="red"><path d="M0 0h24v24H0z"/><circle cx="12" cy="12" r="4"/></g></svg>')!;
    expect(svg.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(svg.ownerDocument).toBe(document);
    expect(svg.querySelector('path')!.getAttribute('d')).toBe('M0 0h24v24H0z');
    expect(svg.querySelector('circle')).not.toBeNull();
    expect(svg.getAttribute('aria-hidden')).toBe('true');
  });

  it('drops scripts, foreignObject, event handlers, animations and javascript: or external references', () => {
    const svg = sanitizeSvg(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
        <script>alert(1)</script>
        <foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject>
        <a href="javascript:alert(1)"><path d="M0 0"/></a>
        <animate attributeName="href" values="javascript:alert(1)"/>
        <set attributeName="onmouseover" to="alert(1)"/>
        <use href="https://evil.example/x.svg#a"/>
        <image xlink:href="https://tracker.example/p.png"/>
        <path d="M1 1" onclick="alert(1)" style="fill:url(javascript:alert(1))" fill="url(#ok)"/>
        <linearGradient id="ok"><stop offset="0"/></linearGradient>
      </svg>`,
    )!;
    expect(svg.outerHTML).not.toMatch(/script|foreignObject|onload|onclick|onerror|javascript|animate|<set|<use|<image|<a[\s>]|evil|tracker/i);
    expect(svg.querySelector('path')!.getAttribute('fill')).toBe('url(#ok)');
    expect(svg.querySelector('linearGradient')).not.toBeNull();
  });

  it('refuses what is not an SVG document', () => {
    expect(sanitizeSvg('<div>hi</div>')).toBeNull();
    expect(sanitizeSvg('<svg><unclosed')).toBeNull();
    expect(sanitizeSvg('not markup')).toBeNull();
  });
});
