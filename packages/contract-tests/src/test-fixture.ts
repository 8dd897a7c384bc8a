import { onTestFinished } from 'vitest';

/** What every setup may hand back besides the stores: how to free what it made. */
export type Teardown = { readonly teardown?: () => Promise<void> };

/** Runs the adapter's setup for one test and schedules its teardown when the test ends. */
export const openFixture = async <F extends Teardown>(setup: () => Promise<F>): Promise<F> => {
  const fixture = await setup();
  const { teardown } = fixture;
  if (teardown) onTestFinished(() => teardown());
  return fixture;
};
