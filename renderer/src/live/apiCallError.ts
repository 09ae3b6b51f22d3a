/** A refused or failed call to the service, with the contract's error code when the service gave one. */
export class ApiCallError extends Error {
  override name = "ApiCallError";
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}
