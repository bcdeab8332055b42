// What an operation's function may answer besides its output object: a payload already serialized where it was
// computed (a worker thread), and a reply with its own status and headers (health's 503, the tract list's cache).
// The REST door sends all three; the MCP door reads the body.

/** A payload of the operation's own output schema, already serialized as JSON text. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A body with the HTTP status and headers the operation chose (REST only; the MCP door takes the body). */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** The body of any answer: parsed from JSON text, unwrapped from a reply, or the object itself. */
export function bodyOf(answer: unknown): unknown {
  const a = answer instanceof Reply ? answer.body : answer;
  return a instanceof JsonText ? JSON.parse(a.text) : a;
}
