import { STATUS_CODES } from 'node:http';

/** An error whose message is safe to show to the client, with the HTTP status it maps to. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);
export const notFound = (what: string) => new HttpError(404, `${what} not found`, 'NOT_FOUND');
export const forbidden = (message: string, code = 'FORBIDDEN') => new HttpError(403, message, code);
export const conflict = (message: string) => new HttpError(409, message, 'CONFLICT');
export const unauthorized = (message = 'Missing or invalid credential') =>
  new HttpError(401, message, 'UNAUTHORIZED', { 'WWW-Authenticate': 'Bearer' });

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  code?: string;
  requestId?: string;
}

export function errorBody(statusCode: number, message: string, code?: string, requestId?: string): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error', code, requestId };
}
