/**
 * The panel chunk (DESIGN.md 7): the conversation, Markdown, forms, products and Preact itself. The loader
 * (`widget.js`) imports it on the first open, when the browser is idle, or at once for a chatbox or for messages
 * left unsent by the previous page.
 */
export { createInstance } from './instance.js';
// `reset()` clears the panel's copy of the storage module too (its in-memory fallback, when storage refuses).
export { clearStorage, holdWrites } from './storage.js';
