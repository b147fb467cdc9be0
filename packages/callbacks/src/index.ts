export { verifyCallback, safeVerifyCallback } from './verify.js';
export type { CallbackDelivery, SafeVerifyResult } from './verify.js';
export { verifyRequest } from './request.js';
export { signCallback } from './hmac.js';
export { DEFAULT_TOLERANCE_SECONDS } from './options.js';
export type { CallbackSecretOptions, VerifyCallbackOptions } from './options.js';
export { CALLBACK_VERIFICATION_REASONS, CallbackVerificationError, isCallbackVerificationError } from './errors.js';
export type { CallbackVerificationReason } from './errors.js';
export { CALLBACK_HEADERS } from './headers.js';
export type { CallbackHeaders } from './headers.js';
export type { CallbackBody } from './body.js';
export type {
  CallbackAction,
  CallbackCredits,
  CallbackEvent,
  CallbackEventName,
  CallbackForm,
  CallbackProduct,
  CallbackUsage,
  LifecycleEvent,
  LifecycleSession,
  MessageCompletedEvent,
  MessageFailedEvent,
  SessionCreatedEvent,
  SessionExpiredEvent,
  SessionRatedEvent,
  SessionHandoffEvent,
  MessageFeedbackEvent,
  MessageFeedback,
  LifecycleHandoff,
  MessageAuthor,
  SessionResolvedEvent,
  VerifiedCallback,
} from './events.js';
