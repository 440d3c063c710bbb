// Pure: whether a Guardian snapshot failed, from the error it stored. The API answers every call with an
// error object, `{"success":true,"message":null,"errorKey":null}` when the call succeeded (API-NOTES:
// a 2xx alone is not success, nor is an error object alone a failure); it is kept as it came.

/** The stored error text when it says the call failed; null when there is none or it says success. */
export function snapshotFailure(error: string | null): string | null {
  if (error === null) return null;
  try {
    const parsed: unknown = JSON.parse(error);
    if (typeof parsed === 'object' && parsed !== null && (parsed as { success?: unknown }).success === true)
      return null;
  } catch {
    // Not JSON: a failure described in words.
  }
  return error;
}
