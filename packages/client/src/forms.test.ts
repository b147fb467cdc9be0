import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { isSvcApiError } from './index.js';
import { meta, reply, SESSION, WIDGET } from './testing/fixtures.js';
import { BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const submissions = `${BASE_URL}/widgets/${WIDGET}/conversations/${SESSION}/form-submissions`;

describe('client.forms', () => {
  it('submit POSTs formId and answers and returns the turn reply', async () => {
    server.use(http.post(submissions, () => HttpResponse.json({ data: reply, meta: meta(2) })));
    const body = { formId: 'contact_sales', answers: { name: 'Ada', newsletter: true, seats: 3, topics: ['tents'] } };
    const res = await testClient().forms.submit(WIDGET, SESSION, body);
    expect(res).toMatchObject({ status: 200, data: reply, meta: { creditsConsumed: 2 } });
    expect(await requests[0]!.json()).toEqual(body);
  });

  it('surfaces a rejected submission as form_rejected naming the question', async () => {
    server.use(
      http.post(submissions, () =>
        HttpResponse.json(
          { error: { code: 'form_rejected', message: 'email must be an email address', field: 'answers.email' }, meta: meta(0) },
          { status: 400 },
        ),
      ),
    );
    const error = await testClient()
      .forms.submit(WIDGET, SESSION, { formId: 'contact_sales', answers: { email: 'nope' } })
      .catch((e: unknown) => e);
    expect(isSvcApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'form_rejected', field: 'answers.email' });
  });
});
