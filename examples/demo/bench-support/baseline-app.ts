import { randomUUID } from 'node:crypto';
import { defaultOnboardingPayloadSchemas } from '@onboarding-kit/core/schemas';
import express, { type Express } from 'express';

/**
 * The bare Express app the HTTP bench measures the kit against. It lives beside the demo so that
 * both run the very same Express. `POST /clients/individuals` is the spec's create as a team would
 * write it by hand: it parses the JSON, runs the same zod schema as the kit, and answers the spec's
 * 201 body, `createdClient` (a client the real kit created once, the answer the binding-only target
 * sends too) with a fresh id and timestamps, kept in a Map. `GET /preset-fees` answers a fixed JSON
 * array.
 */
export const createBaselineApp = (presetFees: unknown, createdClient: object): Express => {
  const app = express();
  app.disable('x-powered-by');
  const clients = new Map<string, unknown>();
  app.post('/clients/individuals', express.json({ limit: 1_048_576 }), (req, res) => {
    const parsed = defaultOnboardingPayloadSchemas.individualPayload.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ code: 'VALIDATION_FAILED', issues: parsed.error.issues.length });
      return;
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    const client = { ...createdClient, id, createdAt: now, updatedAt: now };
    clients.set(id, client);
    res.status(201).json(client);
  });
  app.get('/preset-fees', (_req, res) => {
    res.json(presetFees);
  });
  return app;
};
