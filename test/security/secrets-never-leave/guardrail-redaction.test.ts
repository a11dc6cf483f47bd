import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, createGuardrailHook } from '../../../src';

/**
 * Regression (review): the guardrail hook's `redact` had its own weaker walk — Maps, Errors,
 * class instances and extra result fields passed through unredacted. It now uses the one walker.
 */
class Account {
  constructor(readonly card: string) {}
}

describe('security: guardrail redaction covers every shape of a result', () => {
  it('a card number in a Map, an Error, a class instance, error fields and extra fields is redacted', async () => {
    const card = '4111 1111 1111 1111';
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool({
      name: 'lookup',
      description: 'Look up an account',
      parameters: { type: 'object', properties: {} },
      execute: () => ({
        forLLM: 'found it',
        silent: false,
        isError: false,
        async: false,
        data: { map: new Map([['card', card]]), error: new Error(`declined ${card}`), account: new Account(card) },
        debug: { card },
      }),
    });
    const cards = /\b\d{4}(?: \d{4}){3}\b/g;
    toolkit.use(createGuardrailHook({ output: [{ name: 'cards', check: () => ({ redact: (t: string) => t.replace(cards, '[CARD]') }) }] }));
    const result = await toolkit.callTool({ id: 'g1', name: 'lookup', arguments: {} });
    const seen = JSON.stringify(result, (_key, value: unknown) =>
      value instanceof Map ? [...value] : value instanceof Error ? { message: value.message, stack: value.stack } : value,
    );
    expect(seen).not.toContain('4111');
    expect(result.forLLM).toBe('found it');
  });
});
