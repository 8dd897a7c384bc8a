import { afterEach, expect, test } from 'vitest';
import { type DemoProcess, spawnDemoProcess } from './support/demo-process.js';

let demo: DemoProcess | undefined;
afterEach(() => demo?.kill());

test('the root command starts the demo, prints the keys and a walkthrough, and stops cleanly on SIGTERM', async () => {
  demo = spawnDemoProcess({}, { from: 'tsx' });
  const [, origin] = await demo.waitFor(/listening on (http:\/\/localhost:\d+)/, 30_000);
  await demo.waitFor(/README\.md, "Walkthrough \(curl\)"/, 5_000);
  for (const key of [
    'demo-manager-a-key',
    'demo-manager-b-key',
    'demo-client-a1-key',
    'demo-compliance-key',
  ]) {
    expect(demo.output()).toContain(key);
  }
  const fees = await fetch(`${origin}/manager/v1/preset-fees`, {
    headers: { SERVICE_API_KEY: 'demo-manager-a-key' },
  });
  expect(fees.status).toBe(200);

  demo.child.kill('SIGTERM');
  expect(await demo.exited).toBe(0);
  expect(demo.output()).toContain('SIGTERM: stopping the demo');
  await expect(fetch(`${origin}/openapi.json`)).rejects.toThrow();
});
