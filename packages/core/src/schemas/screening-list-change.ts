import { z } from 'zod';

/** Targets changed by one list version, at most: a whole list (OpenSanctions' default export) fits. */
export const MAX_CHANGED_TARGETS = 2_000_000;
/** Names (the name and its aliases) of one target, at most; the longest lists give a few hundred. */
export const MAX_TARGET_NAMES = 2_000;
const MAX_ID_LENGTH = 200;
const MAX_NAME_LENGTH = 1_000;

/**
 * What the host hands `kit.screening.listChanged`: the new list version's name (any text the host
 * chooses, the same in every process: a date, the export's id) and the targets it added or whose
 * names or aliases changed (`listVersionChanges` of @onboarding-kit/screening-list computes them).
 */
export const screeningListChangeSchema = z.strictObject({
  version: z.string().trim().min(1, 'Required, must not be empty').max(MAX_ID_LENGTH),
  changedTargets: z
    .array(
      z.strictObject({
        id: z.string().min(1, 'Required, must not be empty').max(MAX_ID_LENGTH),
        names: z
          .array(z.string().min(1, 'Required, must not be empty').max(MAX_NAME_LENGTH))
          .min(1, 'A target has at least its name')
          .max(MAX_TARGET_NAMES),
      }),
    )
    .max(MAX_CHANGED_TARGETS),
});
export type ScreeningListChange = z.infer<typeof screeningListChangeSchema>;
