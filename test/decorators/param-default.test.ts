import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Prompt, PromptArg, Tool, ToolParam, ToolService } from '../../src';
import { thrown } from '../support/errors';
import { call, expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';

afterAll(() => expectAllSchemasMetaValid());

class NoteDto {
  @IsString() text!: string;
}

/** `@ToolParam({ default })`: optional, shown as the schema's default, passed when absent, and its type where nothing else names one. */
describe('@ToolParam default', () => {
  @ToolService()
  class Forecast {
    @Tool({ description: 'Forecast' })
    forecast(
      @ToolParam({ name: 'city' }) city: string,
      @ToolParam({ name: 'days', default: 3, integer: true }) days: number,
      @ToolParam({ name: 'metric', default: false }) metric: boolean,
    ) {
      return `${city} ${days} ${typeof days} ${metric}`;
    }
  }

  it('makes the parameter optional, shows the default and passes it when the argument is absent or null', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(Forecast);
    expect(toolkit.getToolSchemas()[0]?.parameters).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', default: 3 }, metric: { type: 'boolean', default: false } },
      required: ['city'],
      additionalProperties: false,
    });
    expect((await call(toolkit, 'forecast', { city: 'Oslo' })).forLLM).toBe('Oslo 3 number false');
    expect((await call(toolkit, 'forecast', { city: 'Oslo', days: null, metric: null })).forLLM).toBe('Oslo 3 number false');
    expect((await call(toolkit, 'forecast', { city: 'Oslo', days: 7, metric: true })).forLLM).toBe('Oslo 7 number true');
    const wrong = await call(toolkit, 'forecast', { city: 'Oslo', days: 2.5 });
    expect(wrong.isError).toBe(true);
    expect(wrong.forLLM).toContain("'days': must be integer");
  });

  it('names the type without decorator metadata (a string, a number, a boolean)', async () => {
    class Bare {
      run(label: unknown, count: unknown, loud: unknown) {
        return [label, count, loud].map((v) => `${typeof v}:${String(v)}`).join(' ');
      }
    }
    Tool({ description: 'Run' })(Bare.prototype, 'run', Object.getOwnPropertyDescriptor(Bare.prototype, 'run')!);
    ToolParam({ name: 'label', default: 'x' })(Bare.prototype, 'run', 0);
    ToolParam({ name: 'count', default: 2 })(Bare.prototype, 'run', 1);
    ToolParam({ name: 'loud', default: true })(Bare.prototype, 'run', 2);
    expect(Reflect.getMetadata('design:paramtypes', Bare.prototype, 'run')).toBeUndefined();

    const toolkit = newToolkit();
    toolkit.registerTool(Bare);
    expect(toolkit.getToolSchemas()[0]?.parameters.properties).toEqual({
      label: { type: 'string', default: 'x' },
      count: { type: 'number', default: 2 },
      loud: { type: 'boolean', default: true },
    });
    expect((await call(toolkit, 'run', {})).forLLM).toBe('string:x number:2 boolean:true');
    const wrong = await call(toolkit, 'run', { label: 1, count: 'two', loud: 'yes' });
    expect(wrong.forLLM).toMatch(/'label': must be string[\s\S]*'count': must be number[\s\S]*'loud': must be boolean/);
  });

  it('refuses a default of another type, outside the enum, not an integer, or on a required parameter', () => {
    class Mismatch {
      @Tool({ description: 'x' })
      run(@ToolParam({ name: 'days', default: 'three' as unknown as number }) days: number) {
        return days;
      }
    }
    expect(thrown(() => newToolkit().registerTool(Mismatch), 'INVALID_DEFINITION').message).toBe(
      'Mismatch.run parameter \'days\' (#0): its default "three" is not a value of its type ("number"). A default is a string, number or boolean the parameter accepts.',
    );
    class OutsideEnum {
      @Tool({ description: 'x' })
      run(@ToolParam({ name: 'unit', enum: ['c', 'f'], default: 'k' }) unit: string) {
        return unit;
      }
    }
    expect(thrown(() => newToolkit().registerTool(OutsideEnum), 'INVALID_DEFINITION').message).toContain('its default "k" is not a value of its type');
    class Fraction {
      @Tool({ description: 'x' })
      run(@ToolParam({ name: 'n', integer: true, default: 1.5 }) n: number) {
        return n;
      }
    }
    expect(thrown(() => newToolkit().registerTool(Fraction), 'INVALID_DEFINITION').message).toContain('its default 1.5 is not a value of its type ("integer")');
    class Required {
      @Tool({ description: 'x' })
      run(@ToolParam({ name: 'n', required: true, default: 1 }) n: number) {
        return n;
      }
    }
    expect(thrown(() => newToolkit().registerTool(Required), 'INVALID_DEFINITION').message).toBe(
      "Required.run parameter 'n' (#0): a parameter with a default is optional; drop required: true or the default.",
    );
  });

  it('never turns a DTO into a plain value: a DTO parameter with a default is refused', () => {
    class Notes {
      @Tool({ description: 'x' })
      add(@ToolParam({ name: 'note', default: 'hello' }) note: NoteDto) {
        return note.text;
      }
    }
    expect(thrown(() => newToolkit().registerTool(Notes), 'INVALID_DEFINITION').message).toContain(
      "Notes.add parameter 'note' (#0): its default \"hello\" is not a value of its type (\"object\")",
    );
  });

  it('applies to prompt arguments too', async () => {
    @ToolService()
    class Review {
      @Prompt({ description: 'Review' })
      review(@PromptArg({ name: 'style', default: 'short' }) style: string) {
        return `Review, ${style}.`;
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(Review);
    expect((await toolkit.prompts.get('review')).messages[0]?.content).toEqual({ type: 'text', text: 'Review, short.' });
    expect((await toolkit.prompts.get('review', { style: 'long' })).messages[0]?.content).toEqual({ type: 'text', text: 'Review, long.' });
  });
});
