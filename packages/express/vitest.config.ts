import { packageProject } from '../../vitest.shared.ts';

// Isolated: express4.test.ts replaces `express` with Express 4 for its own module graph; shared with
// express5.test.ts, the Express 5 suites would run on Express 4 (checked).
export default packageProject('express', { isolate: true });
