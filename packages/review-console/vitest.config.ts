import { configDefaults } from 'vitest/config';
import { packageProject } from '../../vitest.shared.ts';

// The browser tests are a project of their own (vitest.browser.config.ts).
export default packageProject('review-console', { exclude: [...configDefaults.exclude, 'test/browser/**'] });
