/** Path data of the icons drawn both by the loader (launcher, without Preact) and by the panel. */
export const CHAT_PATH = 'M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2Z';
export const CLOSE_PATH = 'M6 6l12 12M18 6 6 18';
