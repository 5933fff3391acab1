/**
 * @module An error answered on the wire with Consul's exact status and text. Clients pattern-match
 * these texts (`Unexpected response code: 500 (...)`), so they copy Consul's words instead of the
 * project's "Cannot X: why" style, which CtsError keeps for our own failures.
 */

export class ApiError extends Error {
  override readonly name: string = "ApiError";
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
export const serverError = (message: string): ApiError => new ApiError(500, message);
export const notFound = (message: string): ApiError => new ApiError(404, message);
