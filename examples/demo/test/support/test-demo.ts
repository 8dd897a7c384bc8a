import type { HttpLogger } from '@onboarding-kit/express';
import { type DemoEnvironment, readDemoConfig } from '../../src/demo-config.js';
import { type RunningDemo, type StartDemoOptions, startDemoOrThrow } from '../../src/start-demo.js';

export type TestDemo = RunningDemo & {
  /** What the demo logged as 500/503 causes, and its warnings: a clean run logs nothing. */
  readonly logged: Array<{ message: string; details: unknown }>;
  readonly warnings: string[];
};

/**
 * The demo exactly as `pnpm demo` starts it, from an explicit environment (never this process's
 * own), on a free port of the loopback interface.
 */
export const startTestDemo = async (
  env: DemoEnvironment = {},
  options: Pick<StartDemoOptions, 'serverLimits'> = {},
): Promise<TestDemo> => {
  const config = readDemoConfig({ PORT: '0', ...env });
  if (config.isErr()) throw new Error(config.error);
  const logged: TestDemo['logged'] = [];
  const warnings: string[] = [];
  const logger: HttpLogger = { error: (message, details) => logged.push({ message, details }) };
  const demo = await startDemoOrThrow(config.value, {
    ...options,
    logger,
    warn: (message) => warnings.push(message),
  });
  return Object.assign(demo, { logged, warnings });
};
