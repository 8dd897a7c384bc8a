import type { IndividualOnboardingPayload } from '@onboarding-kit/core';
import { defaultOnboardingPayloadSchemas } from '@onboarding-kit/core/schemas';
import express, { type Express } from 'express';

export type HandwrittenCreateRoute = {
  /** The one API key it accepts (in `SERVICE_API_KEY`), of the manager it creates for. */
  readonly apiKey: string;
  readonly managerId: string;
  /** The writes (bench/handwritten-pg-create.ts): answers the client as created, throws on failure. */
  readonly create: (input: {
    readonly managerId: string;
    readonly idempotencyKey: string;
    readonly payload: IndividualOnboardingPayload;
    readonly filename: string;
  }) => Promise<unknown>;
};

/**
 * The hand-written Express + pg route the PostgreSQL HTTP bench measures the kit against (decisions
 * §9): what a team would write without the kit. It checks the key, parses the JSON, runs the same
 * zod schema as the kit, requires an Idempotency-Key, and writes with one statement per row inside
 * BEGIN/COMMIT; a key already used is a 409 (a unique violation), anything else a 500.
 */
export const createHandwrittenPostgresApp = ({
  apiKey,
  managerId,
  create,
}: HandwrittenCreateRoute): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.post('/clients/individuals', express.json({ limit: 1_048_576 }), async (req, res) => {
    if (req.get('SERVICE_API_KEY') !== apiKey) {
      res.status(401).json({ code: 'UNAUTHORIZED' });
      return;
    }
    const idempotencyKey = req.get('Idempotency-Key');
    if (idempotencyKey === undefined) {
      res.status(400).json({ code: 'IDEMPOTENCY_KEY_REQUIRED' });
      return;
    }
    const parsed = defaultOnboardingPayloadSchemas.individualPayload.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ code: 'VALIDATION_FAILED', issues: parsed.error.issues.length });
      return;
    }
    const filename = parsed.data.profile.idDocuments[0] ?? '';
    try {
      res.status(201).json(await create({ managerId, idempotencyKey, payload: parsed.data, filename }));
    } catch (error) {
      const unique = (error as { code?: string }).code === '23505';
      res.status(unique ? 409 : 500).json({ code: unique ? 'IDEMPOTENCY_KEY_REUSED' : 'INTERNAL' });
    }
  });
  return app;
};
