import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'callbacks',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
