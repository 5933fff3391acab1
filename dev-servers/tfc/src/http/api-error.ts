/** @module ApiError: an HCP Terraform error answer (`{"errors":[{status,title,detail,source}]}`). */

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  /** JSON pointer into the request body, e.g. `/data/attributes/name`. */
  readonly pointer: string | undefined;

  constructor(status: number, title: string, detail?: string, pointer?: string) {
    super(detail ?? title);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.pointer = pointer;
  }

  toDocument(): { errors: Record<string, unknown>[] } {
    return {
      errors: [{
        status: String(this.status),
        title: this.title,
        ...(this.detail !== undefined ? { detail: this.detail } : {}),
        ...(this.pointer !== undefined ? { source: { pointer: this.pointer } } : {}),
      }],
    };
  }
}

export const notFound = (): ApiError => new ApiError(404, "not found");

export const unauthorized = (): ApiError => new ApiError(401, "unauthorized");

/** 422: a field of the request body is missing or wrong. */
export function invalidAttribute(name: string, detail: string, section = "attributes"): ApiError {
  return new ApiError(422, "invalid attribute", detail, `/data/${section}/${name}`);
}

export function conflict(detail: string, title = "conflict"): ApiError {
  return new ApiError(409, title, detail);
}

export const badRequest = (detail: string): ApiError => new ApiError(400, "bad request", detail);
