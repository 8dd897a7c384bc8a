/** Why the demo could not start: the step that failed and the driver's error. */
export type DemoStartFailure = {
  readonly type: 'DemoStartFailure';
  readonly step: string;
  readonly cause: unknown;
};

export const demoStartFailure =
  (step: string) =>
  (cause: unknown): DemoStartFailure => ({ type: 'DemoStartFailure', step, cause });

/** One readable line per failure, with the cause's own message when it has one. */
export const describeDemoStartFailure = ({ step, cause }: DemoStartFailure): string => {
  const detail =
    cause instanceof Error
      ? `${cause.name}: ${cause.message}`
      : typeof cause === 'object' && cause !== null
        ? JSON.stringify(cause, (_key, value: unknown) =>
            value instanceof Error ? `${value.name}: ${value.message}` : value,
          )
        : String(cause);
  return `Could not ${step}: ${detail}`;
};
