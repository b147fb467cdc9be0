import { createReceiverApp } from './app.js';

// Set the secret the Svc server showed when the API key was created: SVC_CALLBACK_SECRET=whsec_… pnpm start
const secret = process.env.SVC_CALLBACK_SECRET;
if (!secret) {
  console.error('Set SVC_CALLBACK_SECRET to the callback secret of your Svc API key.');
  process.exit(1);
}

const app = createReceiverApp({
  secret,
  onEvent: ({ event, deliveryId }) => {
    // `event.event` narrows the payload: a reply to show, a failure to report, or (on a webhook endpoint) a
    // session lifecycle change.
    if (event.event === 'message.completed') {
      console.log(`[${deliveryId}] reply in ${event.sessionId}: ${event.data.content}`);
    } else if (event.event === 'message.failed') {
      console.log(`[${deliveryId}] turn failed in ${event.sessionId}: ${event.error.code} ${event.error.message}`);
    } else {
      console.log(`[${deliveryId}] ${event.event} ${event.data.sessionId} (now ${event.data.status})`);
    }
  },
});

const port = Number(process.env.PORT ?? 4001);
app.listen(port, () => console.log(`Callback receiver on http://localhost:${port}/svc/callbacks`));
