import type { ContextType } from './execution-context';

/**
 * The context objects that travel with a call that runs elsewhere or later (a queued call, a call
 * held for approval in a shared store), by the name they travel under: a class (its instances are
 * stored as plain JSON with class-transformer's `instanceToPlain`, and rebuilt with
 * `plainToInstance`) or a token (its value is stored as JSON). Declare it once, in a module every
 * process imports.
 *
 * @example
 * export const travelling: TravellingContexts = { user: UserContext, tenant: TENANT_ID };
 */
export type TravellingContexts = Readonly<Record<string, ContextType | symbol | string>>;
