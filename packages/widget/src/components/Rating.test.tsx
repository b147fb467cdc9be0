import { fireEvent, render } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { stringsFor } from '../i18n.js';
import { Rating } from './Rating.js';

describe('Rating', () => {
  const t = stringsFor('en');

  it('asks, sends the choice, and shows it pressed with thanks', () => {
    const onRate = vi.fn();
    const { getByTestId, rerender, getByText } = render(<Rating rating={null} t={t} onRate={onRate} onRestart={() => undefined} />);
    getByText('Conversation ended. Was it helpful?');
    fireEvent.click(getByTestId('svc-rate-negative'));
    expect(onRate).toHaveBeenCalledWith('negative');
    rerender(<Rating rating="negative" t={t} onRate={onRate} onRestart={() => undefined} />);
    expect(getByTestId('svc-rate-negative').getAttribute('aria-pressed')).toBe('true');
    expect(getByTestId('svc-rate-positive').getAttribute('aria-pressed')).toBe('false');
    getByText('Thanks for your feedback!');
  });

  it('names its buttons for screen readers and offers a new conversation', () => {
    const onRestart = vi.fn();
    const { getByRole } = render(<Rating rating={null} t={stringsFor('de')} onRate={() => undefined} onRestart={onRestart} />);
    getByRole('button', { name: 'Ja' });
    getByRole('button', { name: 'Nein' });
    fireEvent.click(getByRole('button', { name: 'Neue Unterhaltung' }));
    expect(onRestart).toHaveBeenCalled();
  });
});
