/** Who is asking: handed to tools by type, never shown to or set by the model. */
export class UserContext {
  constructor(
    readonly name: string,
    readonly unit: 'celsius' | 'fahrenheit',
  ) {}
}
