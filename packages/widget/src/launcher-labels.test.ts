import { expect, it } from 'vitest';
import { stringsFor } from './i18n.js';
import { launcherLabels } from './launcher-labels.js';

it("the loader's launcher names match the panel's strings in every language", () => {
  for (const language of ['en', 'fr-CA', 'de', 'es', 'pt']) {
    const t = stringsFor(language);
    expect(launcherLabels(language), language).toEqual([t.open, t.close]);
  }
});
