import type { PanelModule } from './sdk.js';

/**
 * The panel as a module script from the service, next to widget.js (`widget-assets/panel.<hash>.js`, served with
 * CORS so another origin may import it). Its own module so unit tests, whose DOM cannot fetch modules, can swap it.
 */
export const importPanel = (url: string): Promise<PanelModule> => import(/* @vite-ignore */ url) as Promise<PanelModule>;
