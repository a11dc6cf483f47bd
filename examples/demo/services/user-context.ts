/** Who is asking: injected into tools by type, never visible to the model. */
export class UserContext {
  constructor(
    readonly userId: string,
    readonly name: string,
    readonly tenant: string,
  ) {}
}
