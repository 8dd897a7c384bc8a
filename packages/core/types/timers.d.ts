/**
 * The timer globals the kit's maintenance loop uses (present in Node, Deno, Bun and browsers);
 * declared on their own, like the text-encoding globals, since core has no DOM or Node types.
 * `unref` exists on Node's and Bun's timers only.
 */
interface MaintenanceTimer {
  unref?(): void;
}
declare function setInterval(handler: () => void, timeout: number): MaintenanceTimer;
declare function clearInterval(timer: MaintenanceTimer | undefined): void;
/** The one-shot timer a webhook attempt waiting for a slot gives up on. */
declare function setTimeout(handler: () => void, timeout: number): MaintenanceTimer;
declare function clearTimeout(timer: MaintenanceTimer | undefined): void;
