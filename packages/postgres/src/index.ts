export { type GrantServingRoleOptions, grantServingRole } from './grant-serving-role.js';
export { defaultSchema } from './kit-tables.js';
export { type MigrateOptions, type MigrateOutcome, type MigrationFailed, migrate } from './migrate.js';
export {
  createPostgresAdapters,
  type PostgresAdapters,
  type PostgresAdaptersOptions,
} from './postgres-adapters.js';
export {
  type PostgresJobRunner,
  type PostgresJobRunnerOptions,
  startPostgresJobRunner,
} from './postgres-job-runner.js';
export {
  type PostgresOnboardingKit,
  type PostgresOnboardingKitOptions,
  startPostgresOnboardingKit,
} from './start-postgres-onboarding-kit.js';
