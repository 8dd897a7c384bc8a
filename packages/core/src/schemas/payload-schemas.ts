import { defaultReferenceLists, type ReferenceLists } from '../validation/reference-lists.js';
import { exampleEntityPayloadFor, exampleIndividualPayloadFor } from './example-payloads.js';
import { type OnboardingPayloadSchemas, payloadSchemasOf } from './onboarding-payloads.js';

/**
 * The payload schemas of these lists, each body carrying the example payload that fits them
 * (`.meta({ examples })`): the OpenAPI document's examples are bodies this validation accepts.
 */
export const createOnboardingPayloadSchemas = (
  lists: ReferenceLists = defaultReferenceLists,
): OnboardingPayloadSchemas => {
  const schemas = payloadSchemasOf(lists);
  return {
    ...schemas,
    individualPayload: schemas.individualPayload.meta({ examples: [exampleIndividualPayloadFor(lists)] }),
    entityPayload: schemas.entityPayload.meta({ examples: [exampleEntityPayloadFor(lists)] }),
  };
};
/** The schemas with the default reference lists: used for the OpenAPI document and the types. */
export const defaultOnboardingPayloadSchemas: OnboardingPayloadSchemas = createOnboardingPayloadSchemas();
