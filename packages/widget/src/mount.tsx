import { render } from 'preact';
import { App, type AppProps } from './components/App.js';
import css from './styles.css?inline';

/** The host element's name; pages style the widget with `svc-chat-widget::part(launcher)` and the like. */
export const ELEMENT_NAME = 'svc-chat-widget';

export interface Mounted {
  shadow: ShadowRoot;
  /** Renders synchronously, so the DOM is current when it returns (focus and scrolling rely on it). */
  draw(props: AppProps): void;
  unmount(): void;
}

/**
 * A `<svc-chat-widget>` element appended to `parent`, with a shadow root holding the styles and the Preact tree.
 * The element class has no behaviour of its own: the instance drives rendering and cleanup, so removal is explicit.
 */
export function mount(kind: AppProps['kind'], parent: HTMLElement): Mounted {
  if (!customElements.get(ELEMENT_NAME)) customElements.define(ELEMENT_NAME, class extends HTMLElement {});
  const host = document.createElement(ELEMENT_NAME);
  host.setAttribute('data-kind', kind);
  // Open, so end-to-end tests and assistive tooling can reach in; isolation comes from the shadow boundary itself.
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  const container = document.createElement('div');
  style.textContent = css;
  shadow.append(style, container);
  parent.append(host);
  return {
    shadow,
    draw: (props) => render(<App {...props} />, container),
    unmount() {
      render(null, container);
      host.remove();
    },
  };
}
