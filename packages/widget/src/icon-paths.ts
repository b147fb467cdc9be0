/** Path data of the icons drawn by the loader (launcher, without Preact), the panel and the feedback chunk. */
export const CHAT_PATH = 'M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2Z';
export const CLOSE_PATH = 'M6 6l12 12M18 6 6 18';
/** Thumbs up; the stylesheets turn it over for thumbs down. */
export const THUMB_PATH = 'M2 10h4v12H2zm6 12h9a2 2 0 0 0 2-1.5l2-7a2 2 0 0 0-2-2.5h-5l1-5a2 2 0 0 0-3.5-1.5L8 10z';
