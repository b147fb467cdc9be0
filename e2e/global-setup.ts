import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The tests load `/widget.js` and `/console/` from the service, which serves `packages/widget/dist/` and
 * `packages/console/dist/`: build them from the current source first, so a clean clone (and a widget change since the last build) is what runs in the browser.
 */
export default function buildWidget(): void {
  execFileSync('pnpm', ['--filter', '@svc/widget', '--filter', '@svc/console', 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'pipe',
    // The browser runs the JavaScript; the declarations (for npm users) are not needed here.
    env: { ...process.env, SVC_SKIP_DTS: '1' },
  });
}
