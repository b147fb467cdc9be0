import { useEffect, useState } from 'preact/hooks';
import { admin } from './api/admin.js';
import { setCsrfToken, whenSignedOut } from './api/client.js';
import type { Me } from './api/types.js';
import { href, useRoute, type Route } from './router.js';
import { Analytics } from './screens/Analytics.js';
import { ConversationScreen } from './screens/Conversation.js';
import { Inbox } from './screens/Inbox.js';
import { KeysScreen } from './screens/Keys.js';
import { KnowledgeBaseScreen, KnowledgeList } from './screens/Knowledge.js';
import { Questions } from './screens/Questions.js';
import { SignIn } from './screens/SignIn.js';
import { WidgetEditor } from './screens/WidgetEditor.js';
import { EvalsScreen } from './screens/Evals.js';
import { WidgetList } from './screens/Widgets.js';

const NAV: { label: string; path: string; screens: Route['screen'][]; ownerOnly: boolean }[] = [
  { label: 'Conversations', path: href('conversations'), screens: ['inbox', 'conversation'], ownerOnly: false },
  { label: 'Widgets', path: href('widgets'), screens: ['widgets', 'widget', 'evals'], ownerOnly: true },
  { label: 'Knowledge', path: href('knowledge'), screens: ['knowledge', 'knowledgeBase'], ownerOnly: true },
  { label: 'Questions', path: href('questions'), screens: ['questions'], ownerOnly: true },
  { label: 'Keys & webhooks', path: href('keys'), screens: ['keys'], ownerOnly: true },
  { label: 'Analytics', path: href('analytics'), screens: ['analytics'], ownerOnly: true },
];

function Screen({ route, me }: { route: Route; me: Me }) {
  const owner = me.operator.role === 'owner';
  switch (route.screen) {
    case 'conversation':
      return <ConversationScreen widgetId={route.widgetId} sessionId={route.sessionId} />;
    case 'widgets':
      return owner ? <WidgetList /> : <Inbox />;
    case 'widget':
      return owner ? <WidgetEditor widgetId={route.widgetId} /> : <Inbox />;
    case 'evals':
      return owner ? <EvalsScreen widgetId={route.widgetId} /> : <Inbox />;
    case 'knowledge':
      return owner ? <KnowledgeList /> : <Inbox />;
    case 'knowledgeBase':
      return owner ? <KnowledgeBaseScreen kbId={route.kbId} /> : <Inbox />;
    case 'keys':
      return owner ? <KeysScreen /> : <Inbox />;
    case 'analytics':
      return owner ? <Analytics /> : <Inbox />;
    case 'questions':
      return owner ? <Questions /> : <Inbox />;
    default:
      return <Inbox />;
  }
}

/** Signed in: the navigation and the current screen. Agents see conversations only (their role allows no more). */
function Shell({ me, onSignOut }: { me: Me; onSignOut(): void }) {
  const route = useRoute();
  const signOut = async (): Promise<void> => {
    await admin.signOut().catch(() => undefined);
    onSignOut();
  };
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top brand">
        <span class="logo">Svc console</span>
        <nav aria-label="Console">
          <ul>
            {NAV.filter((item) => !item.ownerOnly || me.operator.role === 'owner').map((item) => (
              <li key={item.path}>
                <a href={item.path} aria-current={item.screens.includes(route.screen) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {me.operator.name} <span class="role">({me.operator.role})</span>
        </span>
        <button type="button" class="on-brand" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Screen route={route} me={me} />
      </main>
    </>
  );
}

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const signedIn = (next: Me | null): void => {
    setCsrfToken(next?.csrfToken ?? null);
    setMe(next);
  };
  useEffect(() => {
    whenSignedOut(() => signedIn(null));
    admin.me().then(signedIn, () => signedIn(null));
  }, []);
  if (me === undefined) {
    return (
      <main id="main">
        <p class="hint" role="status">
          Loading…
        </p>
      </main>
    );
  }
  return me ? <Shell me={me} onSignOut={() => signedIn(null)} /> : <SignIn onSignedIn={signedIn} />;
}
