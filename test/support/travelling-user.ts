import { Redis } from 'ioredis';

/** A context object that travels with calls run elsewhere or later (rebuilt by class-transformer there). */
export class UserContext {
  constructor(
    public id = '',
    public tenant = '',
  ) {}

  label(): string {
    return `${this.id}@${this.tenant}`;
  }
}

/** The travelling declaration every process of a test makes. */
export const TRAVEL = { user: UserContext } as const;

let client: Redis | undefined;

/** The Redis client the test services count their runs with (shared by every process of a test). */
export function runCounter(): Redis {
  return (client ??= new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 }));
}

/** Closes the services' own Redis client. */
export function closeServices(): void {
  client?.disconnect();
  client = undefined;
}
