import { useState } from 'preact/hooks';
import { admin } from '../api/admin.js';
import type { Me } from '../api/types.js';
import { ErrorNote, Title } from '../components/common.js';
import { useAction } from '../hooks.js';

export function SignIn({ onSignedIn }: { onSignedIn(me: Me): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(admin.signIn);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const me = await action.run(email.trim(), password);
    if (me) onSignedIn(me);
  };
  return (
    <main id="main" class="signin">
      <form class="card" onSubmit={submit} aria-describedby="signin-error">
        <Title title="Sign in">Sign in to Svc console</Title>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        <div id="signin-error">
          <ErrorNote error={action.error} />
        </div>
        <button type="submit" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
