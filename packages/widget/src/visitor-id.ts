/** Spec 2.1 / 8: the visitorId alphabet and length. Its own module: the panel needs it without `identify()`'s checks. */
export const VISITOR_ID = /^[\w\-.:@]{1,128}$/;
