/** The time source of the kit: adapters and tests may control it. */
export interface Clock {
  now(): Date;
}
