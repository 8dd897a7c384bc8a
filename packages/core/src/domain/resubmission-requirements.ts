import { type ValidationFailed, validationFailed } from '../errors.js';
import type { ClientType, ResubmissionRequirement } from '../schemas/client-response.js';
import type { OnboardingPayloadSchemas } from '../schemas/onboarding-payloads.js';
import { namesPayloadField } from '../validation/onboarding-field-path.js';

/**
 * The refusal of requirements whose `field` names no field of the payload the client submits (an
 * individual's or an entity's), reported at `requirements[i].field`; undefined when all do.
 */
export const refuseUnknownRequirementFields = (
  requirements: readonly ResubmissionRequirement[],
  clientType: ClientType,
  schemas: OnboardingPayloadSchemas,
): ValidationFailed | undefined => {
  const payload = clientType === 'INDIVIDUAL' ? schemas.individualPayload : schemas.entityPayload;
  const what = clientType === 'INDIVIDUAL' ? "an individual's" : "an entity's";
  const unknown = requirements.flatMap((requirement, index) =>
    namesPayloadField(payload, requirement.field)
      ? []
      : [
          [`requirements[${index}].field`, [`Names no field of ${what} onboarding payload`]] satisfies [
            string,
            string[],
          ],
        ],
  );
  return unknown.length === 0
    ? undefined
    : validationFailed('The request body is invalid', Object.fromEntries(unknown));
};
