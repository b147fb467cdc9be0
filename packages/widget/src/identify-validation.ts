import { readTokenClaims } from './jwt.js';
import type { IdentifyPayload } from './types.js';
import { pick, range, text } from './validation.js';
import { VISITOR_ID } from './visitor-id.js';
import { ignored } from './warn.js';

/** `identify()` after validation: only the properties that passed their checks. */
export type VisitorDetails = IdentifyPayload;

export { VISITOR_ID };

/** Spec 4.9's table, property by property. */
const CHECKS = {
  identityToken: (value: unknown) =>
    value !== null && !(typeof value === 'string' && readTokenClaims(value)) && 'must be a JWT with a "sub" claim, or null',
  visitorId: (value: unknown) =>
    !(typeof value === 'string' && VISITOR_ID.test(value)) && 'must be 1-128 letters, digits or _ - . : @',
  name: text(100),
  email: (value: unknown) => !(typeof value === 'string' && value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) && 'must be an email address',
  phone: text(30),
  company: text(100),
  latitude: range(-90, 90),
  longitude: range(-180, 180),
};

/** Keeps the valid properties of an `identify()` payload; each refused one is reported and left out. */
export function validateIdentify(payload: unknown): VisitorDetails {
  const valid = pick<IdentifyPayload>(payload, CHECKS, 'identify()');
  // Spec 4.9: a position needs both coordinates.
  if ((valid.latitude === undefined) !== (valid.longitude === undefined)) {
    ignored('identify()', valid.latitude === undefined ? 'longitude' : 'latitude', 'must come with its pair');
    delete valid.latitude;
    delete valid.longitude;
  }
  return valid;
}
