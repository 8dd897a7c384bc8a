import { describe, expect, it } from 'vitest';
import { clientStatuses, clientStatusTransitions, transitionClientStatus } from '../src/index.js';

describe('client status machine', () => {
  it('approves a client under review', () => {
    expect(transitionClientStatus('c', 'ONBOARDING_UNDER_REVIEW', 'APPROVE')._unsafeUnwrap()).toBe(
      'WAITING_FOR_TERMS_AND_CONDITIONS_SIGNATURE',
    );
  });
  it('has no transition into the reserved ONBOARDING_IN_PROGRESS', () => {
    expect(clientStatusTransitions.some((t) => t.to === 'ONBOARDING_IN_PROGRESS')).toBe(false);
    expect(clientStatuses).toContain('ONBOARDING_IN_PROGRESS');
  });
});
