import { accessSync, constants } from 'node:fs';

/**
 * Where Debian's packages and the usual alternatives put the browser, the headless shell first:
 * Chromium's own headless build (the one Playwright drives by default), the same engine without a
 * desktop browser's windows. The full browser, in headless mode, made an omnibox popup page in a
 * renderer of its own for every context and drove its window chrome: one review on memory used 48-50
 * CPU s of Chromium with it, 32 with the shell (docs/performance.md).
 */
export const chromiumCandidates = [
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH when set, else the first installed candidate.
 * None found is a failure that names what to install, never a skipped test.
 */
export const chromiumExecutable = (
  environment: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = chromiumCandidates,
): string => {
  const chosen = environment.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') {
    if (executable(chosen)) return chosen;
    throw new Error(
      `CHROMIUM_PATH is ${chosen}, which is not an executable file: the review console's browser tests need Chromium (apt-get install -y chromium-headless-shell)`,
    );
  }
  const found = candidates.find(executable);
  if (found !== undefined) return found;
  throw new Error(
    `No Chromium found (looked for ${candidates.join(', ')}): the review console's browser tests need it. Install it with \`apt-get install -y chromium-headless-shell\` (or \`chromium\`), or set CHROMIUM_PATH to a Chromium binary`,
  );
};
