import { describe, expect, it, vi } from 'vitest';
import { useService } from '../test-service.js';
import { followEvents, type FeedEvent } from './events.js';

const service = useService();

describe('the live event feed', () => {
  it('delivers each event with its data, and after a dropped connection resumes from the last id it saw', async () => {
    const events: FeedEvent[] = [];
    const statuses: boolean[] = [];
    const feed = followEvents({ onEvent: (event) => events.push(event), onStatus: (live) => statuses.push(live), backoff: () => 10 });
    await vi.waitFor(() => expect(service.connections).toHaveLength(1));
    const first = service.connections[0]!;
    expect(first.lastEventId).toBeNull();
    first.send('41', 'session.updated', { sessionId: 's1', widgetId: 'w1', status: 'active' });
    first.send('42', 'message.created', { sessionId: 's1', widgetId: 'w1', role: 'user', content: 'Hello' });
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events[1]).toEqual({ id: '42', type: 'message.created', data: { sessionId: 's1', widgetId: 'w1', role: 'user', content: 'Hello' } });

    first.end();
    await vi.waitFor(() => expect(service.connections).toHaveLength(2));
    expect(service.connections[1]!.lastEventId).toBe('42');
    expect(statuses).toEqual([true, false, true]);
    service.connections[1]!.send('43', 'session.updated', { sessionId: 's1', widgetId: 'w1', status: 'resolved' });
    await vi.waitFor(() => expect(events.map((event) => event.id)).toEqual(['41', '42', '43']));
    feed.stop();
  });

  it('keeps trying after the service refuses or is down, and stops for good when stopped', async () => {
    let refusals = 0;
    const { http, HttpResponse } = await import('msw');
    service.use(
      http.get('http://console.test/admin/v1/events', () => {
        refusals += 1;
        return refusals < 3 ? HttpResponse.error() : undefined;
      }),
    );
    const feed = followEvents({ onEvent: () => undefined, backoff: () => 5 });
    await vi.waitFor(() => expect(service.connections).toHaveLength(1));
    expect(refusals).toBe(3);
    feed.stop();
    service.connections[0]!.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.connections).toHaveLength(1);
  });
});
