import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Redaction is a second line of defence: the code never passes keys or secrets to the
 * logger in the first place.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'svc-conversations' },
      redact: {
        paths: ['key', 'apiKey', 'callbackSecret', 'secret', '*.key', '*.apiKey', '*.callbackSecret', '*.secret', 'headers["x-api-key"]'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
