/**
 * `@svc/widget` for bundler users: the same five commands as the global `Svc` of `widget.js` (spec 4.9), without
 * touching `window`. There is no script tag here, so pass `apiKey` and `apiBase` in the config.
 *
 * @example
 * import { bubble, identify } from '@svc/widget';
 * identify({ name: 'Ada' });
 * bubble({ apiKey: 'pk_live_…', apiBase: 'https://chat.example.com' });
 */
import { setPanelSource } from './sdk.js';

// A bundler splits the panel into its own chunk and loads it on the first open, as widget.js does.
setPanelSource(() => import('./panel.js'));

export { bubble, chatbox, consent, identify, reset, setIdentityTokenProvider } from './sdk.js';
export type {
  BubbleConfig,
  BubbleInstance,
  BubbleOffset,
  BubblePosition,
  ChatboxConfig,
  ChatboxInstance,
  IdentifyPayload,
  IdentityTokenProvider,
  SvcApi,
} from './types.js';
