import type { VNode } from 'preact';
import type { Rating as RatingValue } from '../api-types.js';
import { type Strings, NO, RATE, RESTART, THANKS, YES } from '../i18n.js';
import { ThumbIcon } from './icons.js';

interface RatingProps {
  rating: RatingValue | null;
  t: Strings;
  onRate(rating: RatingValue): void;
  onRestart(): void;
}

/** Shown once the conversation is resolved or expired (spec 4.5): thumbs up or down, then a fresh start. */
export function Rating({ rating, t, onRate, onRestart }: RatingProps): VNode {
  const choice = (value: RatingValue, label: string): VNode => (
    <button
      type="button"
      part={`rate-button rate-${value}`}
      data-testid={`svc-rate-${value}`}
      aria-label={label}
      aria-pressed={rating === value}
      onClick={() => onRate(value)}
    >
      <ThumbIcon />
    </button>
  );
  return (
    <div part="rating" class="rating" data-testid="svc-rating">
      <p id="svc-rate">{rating ? t[THANKS] : t[RATE]}</p>
      <div role="group" aria-labelledby="svc-rate">
        {choice('positive', t[YES])}
        {choice('negative', t[NO])}
      </div>
      <button type="button" part="restart" data-testid="svc-restart" onClick={onRestart}>
        {t[RESTART]}
      </button>
    </div>
  );
}
