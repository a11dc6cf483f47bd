import 'reflect-metadata';
import { Container, inject, injectable } from 'inversify';
import { Tool, ToolParam, ToolService } from '../../src';
import { call, freshToolkit } from '../support/toolkit';

const GREETING = Symbol('greeting');

/**
 * Regression: `@injectable()` written above `@ToolService()` crashed at import with
 * Inversify's "Cannot apply @injectable decorator multiple times", which never named toolwright.
 */
describe('@injectable() together with @ToolService()', () => {
  function defineBoth(order: 'injectable first' | 'ToolService first'): new (greeting: string) => object {
    // class decorators apply bottom-up: the one written last runs first
    if (order === 'ToolService first') {
      @injectable()
      @ToolService({ group: 'greetings' })
      class Greeter {
        constructor(@inject(GREETING) private readonly greeting: string) {}

        @Tool({ description: 'Greet someone' })
        greet(@ToolParam({ name: 'who' }) who: string): string {
          return `${this.greeting}, ${who}`;
        }
      }
      return Greeter;
    }
    @ToolService({ group: 'greetings' })
    @injectable()
    class Greeter {
      constructor(@inject(GREETING) private readonly greeting: string) {}

      @Tool({ description: 'Greet someone' })
      greet(@ToolParam({ name: 'who' }) who: string): string {
        return `${this.greeting}, ${who}`;
      }
    }
    return Greeter;
  }

  it.each(['injectable first', 'ToolService first'] as const)('works with %s, resolved by a real container', async (order) => {
    const Greeter = defineBoth(order);
    const container = new Container();
    container.bind(GREETING).toConstantValue('Hello');
    // the class is injectable for Inversify alone…
    container.bind(Greeter).toSelf();
    expect(container.get(Greeter)).toBeInstanceOf(Greeter);
    // …and for the toolkit, constructor injection included
    const toolkit = freshToolkit({ container });
    toolkit.createToolGroup('greetings', 'Greetings', true);
    toolkit.registerTool(Greeter);
    await expect(call(toolkit, 'greet', { who: 'Ada' })).resolves.toMatchObject({ isError: false, forLLM: 'Hello, Ada' });
  });

  it('keeps the scope given to @injectable() written above @ToolService()', () => {
    @injectable('Singleton')
    @ToolService()
    class Counter {
      @Tool({ description: 'Count' })
      count(): number {
        return 1;
      }
    }
    const container = new Container();
    container.bind(Counter).toSelf();
    expect(container.get(Counter)).toBe(container.get(Counter));
  });

  it('still lets Inversify report @injectable() written twice (toolwright hides no user mistake)', () => {
    expect(() => {
      @injectable()
      @injectable()
      class Twice {}
      return Twice;
    }).toThrow(/multiple times/);
  });
});
