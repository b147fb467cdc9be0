import { fireEvent, render, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { EVERY_KIND_FORM } from '../../test/fake-service.js';
import { stringsFor, EMAIL, REQUIRED } from '../i18n.js';
import { ChatForm } from './ChatForm.js';

const t = stringsFor('en');

function renderForm(onSubmit = vi.fn(async () => null as Record<string, string> | null), details = {}) {
  const view = render(
    <ChatForm form={EVERY_KIND_FORM} sent={false} disabled={false} details={details} t={t} onSubmit={onSubmit} />,
  );
  const input = (id: string): HTMLInputElement => view.getByTestId(`svc-input-${id}`) as HTMLInputElement;
  const type = (id: string, value: string): void => {
    fireEvent.input(input(id), { target: { value } });
  };
  const choose = (id: string, value: string): void => {
    fireEvent.input(input(id), { target: { value } });
  };
  const fillValid = (): void => {
    type('name', 'Ada');
    type('email', 'ada@example.com');
    type('seats', '3');
    choose('newsletter', 'yes');
    choose('plan', 'Pro');
  };
  return { ...view, onSubmit, input, type, choose, fillValid };
}

describe('ChatForm', () => {
  it('renders a labelled control of the right type for every question kind', () => {
    const { getByLabelText, getByRole, getByTestId } = renderForm();
    const kinds: [string, string][] = [
      ['Name', 'text'],
      ['Email', 'email'],
      ['Phone', 'tel'],
      ['Seats', 'number'],
      ['Day', 'date'],
      ['Hour', 'time'],
      ['Meeting', 'datetime-local'],
    ];
    for (const [label, type] of kinds) expect((getByLabelText(label, { exact: false }) as HTMLInputElement).type).toBe(type);
    expect(getByLabelText('Notes', { exact: false }).tagName).toBe('TEXTAREA');
    expect(getByLabelText('Plan', { exact: false }).tagName).toBe('SELECT');
    const yesNo = getByLabelText('Newsletter', { exact: false }) as HTMLSelectElement;
    expect([...yesNo.options].map((option) => option.value)).toEqual(['', 'yes', 'no']);
    expect(getByRole('group', { name: 'Topics' }).querySelectorAll('input[type=checkbox]')).toHaveLength(3);
    expect(getByTestId('svc-input-seats').getAttribute('min')).toBe('1');
  });

  it('shows every problem on its question, announces it, focuses the first, and sends nothing', async () => {
    const { getByTestId, onSubmit, input, type } = renderForm();
    type('email', 'nope');
    fireEvent.submit(getByTestId('svc-form'));
    await waitFor(() => getByTestId('svc-error-name'));
    expect(getByTestId('svc-error-name').textContent).toBe(t[REQUIRED]);
    expect(getByTestId('svc-error-email').textContent).toBe(t[EMAIL]);
    expect(input('name').getAttribute('aria-invalid')).toBe('true');
    expect(input('name').getAttribute('aria-describedby')).toBe(getByTestId('svc-error-name').id);
    expect(document.activeElement).toBe(input('name'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks a field when the visitor leaves it, and updates the problem while they fix it', async () => {
    const { queryByTestId, getByTestId, input, type } = renderForm();
    type('seats', '99');
    fireEvent.blur(input('seats'));
    await waitFor(() => expect(getByTestId('svc-error-seats').textContent).toBe('At most 50.'));
    type('seats', '9');
    await waitFor(() => expect(queryByTestId('svc-error-seats')).toBeNull());
  });

  it('checks the multiselect limits', async () => {
    const { getByTestId, getByLabelText, fillValid } = renderForm();
    fillValid();
    for (const option of ['Tents', 'Boots', 'Stoves']) fireEvent.click(getByLabelText(option));
    fireEvent.submit(getByTestId('svc-form'));
    await waitFor(() => expect(getByTestId('svc-error-topics').textContent).toBe('At most 2.'));
  });

  it('submits typed answers and a readable summary', async () => {
    const { getByTestId, getByLabelText, onSubmit, fillValid, type } = renderForm();
    fillValid();
    type('meeting', '2026-03-01T09:30');
    fireEvent.click(getByLabelText('Boots'));
    fireEvent.submit(getByTestId('svc-form'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith(
      { name: 'Ada', email: 'ada@example.com', seats: 3, newsletter: true, plan: 'Pro', topics: ['Boots'], meeting: '2026-03-01T09:30' },
      'Talk to sales\nName: Ada\nEmail: ada@example.com\nSeats: 3\nNewsletter: Yes\nPlan: Pro\nTopics: Boots\nMeeting: 2026-03-01T09:30',
    );
  });

  it("shows the server's form_rejected problem on the question it names, or on the form", async () => {
    const onSubmit = vi.fn(async () => ({ email: 'Email: this domain does not accept mail' }) as Record<string, string> | null);
    const { getByTestId, fillValid } = renderForm(onSubmit);
    fillValid();
    fireEvent.submit(getByTestId('svc-form'));
    await waitFor(() => expect(getByTestId('svc-error-email').textContent).toBe('Email: this domain does not accept mail'));
    onSubmit.mockResolvedValueOnce({ unknown_question: 'Form contact_sales has no question "unknown_question".' });
    fireEvent.submit(getByTestId('svc-form'));
    await waitFor(() => expect(getByTestId('svc-form-error').textContent).toContain('no question'));
  });

  it('pre-fills questions from identify() details', () => {
    const { input } = renderForm(undefined, { name: 'Grace', email: 'grace@example.com', phone: '+44 20 7946 0000' });
    expect([input('name').value, input('email').value, input('phone').value]).toEqual(['Grace', 'grace@example.com', '+44 20 7946 0000']);
  });

  it('shows a sent form as done', () => {
    const { getByTestId, queryByTestId } = render(
      <ChatForm form={EVERY_KIND_FORM} sent disabled={false} details={{}} t={t} onSubmit={vi.fn()} />,
    );
    expect(queryByTestId('svc-form')).toBeNull();
    expect(getByTestId('svc-form-sent').textContent).toContain('Talk to sales');
  });
});
