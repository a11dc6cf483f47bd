/** Who is calling: injected into tools, never sent by the model. */
export class UserContext {
  constructor(readonly name: string) {}
}
