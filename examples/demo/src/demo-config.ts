import { err, ok, type Result } from 'neverthrow';

/** Where the demo keeps documents when S3 is configured (decisions §8). */
export type S3Settings = {
  readonly bucket: string;
  /** An S3-compatible server (MinIO, s3rver, R2…); path-style addressing is used with it. */
  readonly endpoint: string | null;
  readonly region: string;
  /** From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; null leaves it to the SDK's default chain. */
  readonly credentials: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  } | null;
};

/** Everything the demo reads from its environment. */
export type DemoConfig = {
  /** 0 lets the system choose (tests and benches). */
  readonly port: number;
  /** Interface the server listens on. */
  readonly host: string;
  /**
   * Origin callers reach the demo at; the memory storage's signed links point to
   * `<publicBaseUrl>/storage`. Null: `http://localhost:<port actually bound>`.
   */
  readonly publicBaseUrl: string | null;
  readonly databaseUrl: string | null;
  readonly s3: S3Settings | null;
  /** WEBHOOK_URL (and WEBHOOK_SECRET): an endpoint registered for manager A at start. */
  readonly webhook: WebhookSettings | null;
  /**
   * WEBHOOK_JOB_EXPIRY_SECONDS (PostgreSQL, default 60): after this long a webhook job of a process
   * that died is run again by another (the runner's maintenance runs at half this interval).
   */
  readonly webhookJobExpirySeconds: number;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: every endpoint a manager registers may be on loopback or
   * a private network (local trials). Default false: only WEBHOOK_URL may be, since the demo's
   * keys are public and any endpoint would otherwise probe the demo's own network.
   */
  readonly webhookAllowPrivateNetworks: boolean;
  /**
   * SCREENING_LIST: a sanctions list file in the OpenSanctions `targets.simple.csv` format; every
   * create and resubmit is then screened against it. Null: screening is off (`screening: null`).
   */
  readonly screeningList: string | null;
  /**
   * MANAGER_RATE_LIMIT: requests per minute each manager may send to the manager interface (a 429
   * with Retry-After past it), one budget across every demo process on the same DATABASE_URL.
   * Null (unset, the default): no limit.
   */
  readonly managerRateLimit: number | null;
};

export type WebhookSettings = {
  readonly url: string;
  /** `whsec_` + base64 of at least 24 bytes; null: the kit makes one and the demo prints it. */
  readonly secret: string | null;
};

export type DemoEnvironment = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORT = 3000;
// The demo's keys are public: it answers on the loopback interface unless told otherwise.
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_REGION = 'us-east-1';

/** An unset or blank variable is absent. */
const variable = (env: DemoEnvironment, name: string): string | null => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? null : value;
};

const portOf = (raw: string | null): Result<number, string> => {
  if (raw === null) return ok(DEFAULT_PORT);
  const port = Number(raw);
  return Number.isInteger(port) && port >= 0 && port <= 65_535
    ? ok(port)
    : err(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(raw)}`);
};

const publicBaseUrlOf = (raw: string | null): Result<string | null, string> => {
  if (raw === null) return ok(null);
  if (!URL.canParse(raw)) return err(`PUBLIC_BASE_URL must be an absolute URL, not ${JSON.stringify(raw)}`);
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return err(`PUBLIC_BASE_URL must be an http or https URL, not ${JSON.stringify(raw)}`);
  }
  return ok(raw.replace(/\/+$/, ''));
};

const webhookOf = (env: DemoEnvironment): WebhookSettings | null => {
  // The URL itself is checked by the kit when the endpoint is registered (a clear start failure).
  const url = variable(env, 'WEBHOOK_URL');
  return url === null ? null : { url, secret: variable(env, 'WEBHOOK_SECRET') };
};

const allowPrivateNetworksOf = (raw: string | null): Result<boolean, string> =>
  raw === null || raw === 'false'
    ? ok(false)
    : raw === 'true'
      ? ok(true)
      : err(`WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false, not ${JSON.stringify(raw)}`);

const MAX_MANAGER_RATE_LIMIT = 1_000_000;

const managerRateLimitOf = (raw: string | null): Result<number | null, string> => {
  if (raw === null) return ok(null);
  const perMinute = /^[0-9]{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  return perMinute >= 1 && perMinute <= MAX_MANAGER_RATE_LIMIT
    ? ok(perMinute)
    : err(
        `MANAGER_RATE_LIMIT must be a whole number of requests per minute, 1 to ${MAX_MANAGER_RATE_LIMIT}, not ${JSON.stringify(raw)}`,
      );
};

const webhookSecretShape = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

/** WEBHOOK_SECRET alone or not a Standard Webhooks secret, or a malformed job expiry: said at once. */
const checkWebhookSettings = (env: DemoEnvironment): Result<void, string> => {
  const expiry = variable(env, 'WEBHOOK_JOB_EXPIRY_SECONDS');
  if (expiry !== null && !(/^[0-9]{1,5}$/.test(expiry) && Number(expiry) >= 2)) {
    return err('WEBHOOK_JOB_EXPIRY_SECONDS must be a whole number of seconds, at least 2');
  }
  const secret = variable(env, 'WEBHOOK_SECRET');
  if (secret === null) return ok(undefined);
  if (variable(env, 'WEBHOOK_URL') === null)
    return err('WEBHOOK_SECRET is set but WEBHOOK_URL is not: set both');
  return webhookSecretShape.test(secret)
    ? ok(undefined)
    : err('WEBHOOK_SECRET must be whsec_ followed by the base64 of at least 24 random bytes');
};

const s3SettingsOf = (env: DemoEnvironment): Result<S3Settings | null, string> => {
  const bucket = variable(env, 'S3_BUCKET');
  const endpoint = variable(env, 'S3_ENDPOINT');
  if (bucket === null) {
    return endpoint === null ? ok(null) : err('S3_ENDPOINT is set but S3_BUCKET is not: set both');
  }
  if (endpoint !== null && !URL.canParse(endpoint)) {
    return err(`S3_ENDPOINT must be an absolute URL, not ${JSON.stringify(endpoint)}`);
  }
  const accessKeyId = variable(env, 'AWS_ACCESS_KEY_ID');
  const secretAccessKey = variable(env, 'AWS_SECRET_ACCESS_KEY');
  const sessionToken = variable(env, 'AWS_SESSION_TOKEN');
  return ok({
    bucket,
    endpoint,
    region: variable(env, 'S3_REGION') ?? variable(env, 'AWS_REGION') ?? DEFAULT_REGION,
    credentials:
      accessKeyId === null || secretAccessKey === null
        ? null
        : { accessKeyId, secretAccessKey, ...(sessionToken === null ? {} : { sessionToken }) },
  });
};

/**
 * Reads PORT, HOST, PUBLIC_BASE_URL, DATABASE_URL, S3_BUCKET, S3_ENDPOINT, S3_REGION, the AWS
 * credentials, WEBHOOK_URL, WEBHOOK_SECRET, WEBHOOK_ALLOW_PRIVATE_NETWORKS, SCREENING_LIST and MANAGER_RATE_LIMIT. A malformed value is an error naming the variable, never a silent default.
 */
export const readDemoConfig = (env: DemoEnvironment): Result<DemoConfig, string> =>
  portOf(variable(env, 'PORT')).andThen((port) =>
    publicBaseUrlOf(variable(env, 'PUBLIC_BASE_URL')).andThen((publicBaseUrl) =>
      checkWebhookSettings(env)
        .andThen(() => allowPrivateNetworksOf(variable(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS')))
        .andThen((webhookAllowPrivateNetworks) =>
          s3SettingsOf(env).map((s3) => ({ s3, webhookAllowPrivateNetworks })),
        )
        .andThen((settings) =>
          managerRateLimitOf(variable(env, 'MANAGER_RATE_LIMIT')).map((managerRateLimit) => ({
            ...settings,
            managerRateLimit,
          })),
        )
        .map(
          ({ s3, webhookAllowPrivateNetworks, managerRateLimit }): DemoConfig => ({
            port,
            host: variable(env, 'HOST') ?? DEFAULT_HOST,
            publicBaseUrl,
            databaseUrl: variable(env, 'DATABASE_URL'),
            webhook: webhookOf(env),
            webhookJobExpirySeconds: Number(variable(env, 'WEBHOOK_JOB_EXPIRY_SECONDS') ?? 60),
            webhookAllowPrivateNetworks,
            s3,
            screeningList: variable(env, 'SCREENING_LIST'),
            managerRateLimit,
          }),
        ),
    ),
  );
