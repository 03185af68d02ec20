import { ERROR_CODES, type ErrorCode } from "./codes";

/**
 * The one error class the API throws. It carries a spec `code`; status and title follow from the code.
 * `extensions` are extra problem members (e.g. `reason`, `field`), `headers` go on the response.
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly title: string;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${detail}`, options);
    this.status = ERROR_CODES[code].status;
    this.title = ERROR_CODES[code].title;
  }
}
