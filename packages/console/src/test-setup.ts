import { cleanup } from '@testing-library/preact';
import { afterEach } from 'vitest';

// Testing Library cleans up by itself only when test globals are enabled; this project imports them explicitly.
afterEach(cleanup);
